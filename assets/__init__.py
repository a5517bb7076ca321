"""The viewer's data files (fonts, the window icon, sounds), installed as `cuesim.assets`.

Read them through `cuesim.viewer.assets`, the one module that loads them. Contents, sources
and licences: assets/README.md.
"""
