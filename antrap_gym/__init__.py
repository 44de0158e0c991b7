"""antrap-gym: Android GUI agents under runtime anomalies."""
__version__ = "0.1.0"
