"""How a policy is prompted and how it answers (`PolicyConfig`): the one setting the
prompt builders (`agents/prompts.py`), the reply readers and writers
(`agents/completions.py`) and `PolicySession` all take."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from antrap_gym.agents.coords import (
    COORD_MODES,
    MAX_PIXELS,
    MIN_PIXELS,
    QWEN25_FACTOR,
    CoordSpace,
)

if TYPE_CHECKING:
    pass

PROMPT_STYLES = ("guiowl", "m3a", "compact")
OBSERVATIONS = ("screenshot", "text", "both")




@dataclass(frozen=True)
class PolicyConfig:
    """How the policy is prompted and how it answers.

    prompt: "guiowl" (`mobile_use` tool calls), "m3a" (AndroidWorld JSON) or
        "compact" (`mobile_use` calls, a short prompt: see the module's docstring).
    coords: "absolute" (resized-image pixels, Qwen2.5-VL) or "relative" (0-1000, Qwen3-VL).
    observation: "screenshot" (VLMs), "text" (elements, text-only models) or "both".
    element_index: the model may target an element by its `[i]` instead of a
        coordinate (AndroidLab's XML mode); None = only when elements are shown.
    factor / min_pixels / max_pixels: the `smart_resize` of the screenshot
        (use `factor=32` for Qwen3-VL).
    max_history: how many earlier step summaries the prompt keeps (the latest).
    max_element_chars: the element list is cut (whole lines) beyond this.
    conclusion: ask for (and write) a `<conclusion>` after the tool call.
    index_targets: SFT targets address the touched element by its `[i]` rather
        than by a coordinate, where the oracle touches an element's centre (needs
        elements in the prompt; a small model learns an index far more easily
        than a coordinate).
    goal_reminder: restate the goal after the screen, just before the
        instructions. The element list puts the goal hundreds of tokens before
        the reply; a small model trained from scratch finds a restatement next to
        the reply far more easily (M3A-style prompts restate the goal as well).
    tool_docs: the `mobile_use` schema carries its prose (GUI-Owl's prompt).
        False keeps its names, types and enums only: ~150 tokens instead of ~850
        — for a small model trained from scratch the prose is a constant prefix
        it never learns from, yet most of each step's compute.
    element_bounds: the element lines end with their bounds. False drops them
        (a third of a text prompt), for models that target elements by `[i]`.
    """

    prompt: str = "guiowl"
    coords: str = "absolute"
    observation: str = "screenshot"
    element_index: bool | None = None
    factor: int = QWEN25_FACTOR
    min_pixels: int = MIN_PIXELS
    max_pixels: int = MAX_PIXELS
    max_history: int = 20
    max_element_chars: int = 16_000
    conclusion: bool = True
    index_targets: bool = False
    goal_reminder: bool = False
    tool_docs: bool = True
    element_bounds: bool = True

    def __post_init__(self) -> None:
        if self.prompt not in PROMPT_STYLES:
            raise ValueError(f"prompt must be one of {PROMPT_STYLES}, got {self.prompt!r}")
        if self.coords not in COORD_MODES:
            raise ValueError(f"coords must be one of {COORD_MODES}, got {self.coords!r}")
        if self.observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, got {self.observation!r}")

    @property
    def shows_image(self) -> bool:
        return self.observation in ("screenshot", "both")

    @property
    def shows_elements(self) -> bool:
        return self.observation in ("text", "both")

    @property
    def uses_index(self) -> bool:
        """Whether element indices are offered (`element_index`, else: when elements are shown)."""
        return self.shows_elements if self.element_index is None else bool(self.element_index)

    def space(self, screen_size: tuple[int, int]) -> CoordSpace:
        """The coordinate space for a device screen `(W, H)`."""
        return CoordSpace.for_screen(screen_size, self.coords, factor=self.factor,
                                     min_pixels=self.min_pixels, max_pixels=self.max_pixels)


DEFAULT_CONFIG = PolicyConfig()
