"""Developer scripts that make committed files (not installed with the package)."""
