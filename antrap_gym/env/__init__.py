"""The Gymnasium environment: actions, spaces, AndroidEnv."""

from antrap_gym.env.actions import ACTION_TYPES, Action, ActionError
from antrap_gym.env.android_env import AndroidEnv
from antrap_gym.env.info import InfoMap
from antrap_gym.env.spaces import UnicodeText

__all__ = ["ACTION_TYPES", "Action", "ActionError", "AndroidEnv", "InfoMap", "UnicodeText"]
