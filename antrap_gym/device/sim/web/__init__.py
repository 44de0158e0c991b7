"""The simulated phone's web engine: HTML and CSS parsed into a laid-out page, its scripts run in QuickJS, painted and driven like any app view (docs/browser-pages.md)."""
