"""The package version, in a module of its own so that any layer can name it without importing the package root
(which would make the root's lazy `LexGraph` a cycle)."""

__version__ = "0.1.0"
