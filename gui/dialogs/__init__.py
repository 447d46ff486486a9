"""Dialogs of the app."""
