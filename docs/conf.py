"""Sphinx configuration of the user guide (docs/): python -m sphinx -W docs OUT."""
project = "klampt"
author = "the klampt developers"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
master_doc = "index"
exclude_patterns = ["_build"]
html_theme = "alabaster"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": True}
# Docstrings name the reference's types (RobotModel, ndarray, ...) in prose.
nitpicky = False
myst_heading_anchors = 3
# Short field names shared by several classes (ContactPoint.x, Viewport.x)
# make a prose mention of them an ambiguous cross-reference; not an error.
suppress_warnings = ["ref.python"]
