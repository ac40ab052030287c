"""Python client for npcd: a game server's stream (own agents, receive actions, report
results with progress, reconnect with backoff) and the admin calls. See README.md."""
from .backoff import Backoff
from .client import NpcdClient, NpcdError
from .game_stream import GameStream
from .stubs import load_stubs

__all__ = ["Backoff", "GameStream", "NpcdClient", "NpcdError", "load_stubs"]
__version__ = "0.1.0"
