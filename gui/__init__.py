"""All Qt code of Plyground: the only package that imports PySide6."""
