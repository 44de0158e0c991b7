"""The offline map OsmAnd holds: a stylised Liechtenstein (the one map AndroidWorld
preloads, Liechtenstein_europe.obf), and the search over its places.

Places sit at their real coordinates (AndroidWorld's twelve preloaded locations, plus
the capital Vaduz, which every map of the country shows); the border, the Rhine and
the main roads are drawn from a handful of real points each, enough to find one's way.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

COUNTRY = "Liechtenstein"


@dataclass(frozen=True)
class Place:
    name: str
    lat: float
    lon: float
    kind: str  # what the search result and the context card say it is

    @property
    def address(self) -> str:
        return f"{self.name}, {COUNTRY}"


#: the map's places, west to east within each band
PLACES: tuple[Place, ...] = (
    Place("Balzers", 47.0688832, 9.5061564, "Village"),
    Place("Bendern", 47.2122151, 9.5062101, "Village"),
    Place("Malbun", 47.1026191, 9.6083057, "Village"),
    Place("Nendeln", 47.1973857, 9.5430636, "Village"),
    Place("Oberplanken", 47.1784977, 9.5450163, "Hamlet"),
    Place("Planken", 47.1858882, 9.5452201, "Village"),
    Place("Rotenboden", 47.1275785, 9.5387131, "Hamlet"),
    Place("Ruggell", 47.23976, 9.5262837, "Village"),
    Place("Schaan", 47.1663432, 9.5103085, "Town"),
    Place("Schaanwald", 47.2165476, 9.5699984, "Village"),
    Place("Schönberg", 47.1303814, 9.5930117, "Peak"),
    Place("Triesen", 47.106997, 9.5274854, "Village"),
    Place("Vaduz", 47.1410, 9.5215, "City"),
)
BY_NAME = {p.name: p for p in PLACES}
#: where the map opens: the middle of the country
HOME = (47.16, 9.555)

Point = tuple[float, float]  # (lat, lon)

BORDER: tuple[Point, ...] = (
    (47.2705, 9.5300), (47.2600, 9.5620), (47.2330, 9.5800), (47.2150, 9.5820),
    (47.1950, 9.6050), (47.1700, 9.6250), (47.1350, 9.6350), (47.1000, 9.6250),
    (47.0700, 9.6150), (47.0550, 9.6000), (47.0500, 9.5700), (47.0560, 9.5300),
    (47.0600, 9.4950), (47.0800, 9.4800), (47.1100, 9.4880), (47.1500, 9.4780),
    (47.1900, 9.4880), (47.2250, 9.5050), (47.2550, 9.5200),
)
RHINE: tuple[Point, ...] = (
    (47.0450, 9.5050), (47.0600, 9.4900), (47.0800, 9.4760), (47.1100, 9.4850),
    (47.1500, 9.4740), (47.1900, 9.4850), (47.2250, 9.5020), (47.2550, 9.5170),
    (47.2800, 9.5330),
)


def _via(*names_or_points: str | Point) -> tuple[Point, ...]:
    return tuple((BY_NAME[p].lat, BY_NAME[p].lon) if isinstance(p, str) else p
                 for p in names_or_points)


#: (points, kind): "main" roads, "minor" roads, "path" (a mountain trail)
ROADS: tuple[tuple[tuple[Point, ...], str], ...] = (
    (_via("Balzers", (47.0880, 9.5150), "Triesen", "Vaduz", "Schaan", (47.1850, 9.5280),
          "Nendeln", "Schaanwald", (47.2240, 9.5830)), "main"),
    (_via("Schaan", (47.1900, 9.4990), "Bendern", "Ruggell", (47.2560, 9.5280)), "main"),
    (_via("Vaduz", (47.1350, 9.5330), "Rotenboden", (47.1220, 9.5600), (47.1150, 9.5800),
          (47.1080, 9.5950), "Malbun"), "minor"),
    (_via("Triesen", (47.1150, 9.5330), "Rotenboden"), "minor"),
    (_via("Schaan", (47.1720, 9.5300), "Oberplanken", "Planken", (47.1930, 9.5440), "Nendeln"),
     "minor"),
    (_via("Bendern", (47.2050, 9.5250), "Nendeln"), "minor"),
    (_via("Malbun", (47.1150, 9.6030), "Schönberg", (47.1380, 9.5800), (47.1420, 9.5650)), "path"),
)


# --- search -----------------------------------------------------------------------------------


def fold(s: str) -> str:
    """Case and accents dropped (`Schönberg` is found as "schonberg"), runs of spaces one."""
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(s.casefold().split())


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def parse_coordinates(query: str) -> Point | None:
    """"47.06888, 9.50616" (or with a space, or a semicolon, between them) as (lat, lon);
    None unless the query is exactly two numbers in range."""
    q = query.strip()
    nums = _NUMBER.findall(q)
    if len(nums) != 2:
        return None
    rest = _NUMBER.sub("", q)
    if rest.strip(" ,;") != "":
        return None
    lat, lon = float(nums[0]), float(nums[1])
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None
    return lat, lon


@lru_cache(maxsize=256)
def search(query: str) -> tuple[Place, ...]:
    """The places a query finds: every word of it (commas and spaces split them) starts a
    word of the place's name or its country, or, for the first word, is inside the name
    (OsmAnd finds "planken" in Oberplanken too). A name equal to the query comes first,
    then names that start with it, then the rest, each by name."""
    words = [w for w in re.split(r"[\s,]+", fold(query)) if w]
    if not words:
        return ()
    found = []
    for p in PLACES:
        name = fold(p.name)
        haystack = (name + " " + fold(COUNTRY)).split()
        first, rest = words[0], words[1:]
        if not (first in name or any(h.startswith(first) for h in haystack)):
            continue
        if all(any(h.startswith(w) for h in haystack) for w in rest):
            q = " ".join(words)
            rank = 0 if name == q or fold(p.address) == fold(query) else 1 if name.startswith(first) else 2
            found.append((rank, p.name, p))
    return tuple(p for _, _, p in sorted(found, key=lambda t: (t[0], t[1])))


def nearest(lat: float, lon: float, within: float) -> Place | None:
    """The place within `within` degrees (both ways) of a point, the closest first."""
    best = None
    for p in PLACES:
        d = max(abs(p.lat - lat), abs(p.lon - lon))
        if d <= within and (best is None or d < best[0]):
            best = (d, p)
    return best[1] if best else None


def format_coordinates(lat: float, lon: float) -> str:
    """How OsmAnd shows a point without a name: degrees to five places."""
    return f"{lat:.5f}, {lon:.5f}"
