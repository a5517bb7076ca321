"""Motion laws: between events every object follows a closed-form polynomial segment."""
