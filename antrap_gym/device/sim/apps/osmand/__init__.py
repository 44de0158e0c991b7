"""OsmAnd (`net.osmand`): the offline map of Liechtenstein, search, favourites, map
markers and Plan a route.

- `places`: the map's places, roads and border, and the search over them;
- `mapview`: the projection and what the map draws;
- `storage`: favourites (GPX), map markers (map_markers_db), tracks (GPX), settings;
- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.osmand.app import OsmAnd

APP = OsmAnd

__all__ = ["APP", "OsmAnd"]
