"""The simulated phone's web engine: HTML and CSS laid out into a page, its scripts run
in QuickJS, painted and driven like any app view (docs/browser-pages.md)."""
