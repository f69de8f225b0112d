"""pcagent: automates long, multi-application desktop tasks through the GUI, as a person would."""

__version__ = "0.1.0"
