"""Gymnasium environments: refereed games of novus (singles), 8-ball, 9-ball, 14.1 and
5-pins (`pip install "cuesim[env]"`). Importing this module registers, for each game, a Dict
observation and a flat one:

    cuesim/Novus-v0        cuesim/NovusFlat-v0
    cuesim/EightBall-v0    cuesim/EightBallFlat-v0
    cuesim/NineBall-v0     cuesim/NineBallFlat-v0
    cuesim/StraightPool-v0 cuesim/StraightPoolFlat-v0
    cuesim/FivePins-v0     cuesim/FivePinsFlat-v0

>>> import gymnasium, cuesim.env                               # doctest: +SKIP
>>> env = gymnasium.make("cuesim/NineBall-v0", reward="shaped")  # doctest: +SKIP

Each id's `vector_entry_point` is `CueVecEnv` (cuesim.env.vector): many environments whose
physics runs in one compiled call per round, parallel over cores:

>>> envs = gymnasium.make_vec("cuesim/NineBall-v0", num_envs=64)  # doctest: +SKIP
"""

from __future__ import annotations

try:
    import gymnasium
except ModuleNotFoundError:  # pragma: no cover - the message is the point
    raise ModuleNotFoundError("cuesim.env needs gymnasium, an optional extra: "
                              "pip install \"cuesim[env]\"") from None

from cuesim.env.core import PLAYERS, CueEnv, EnvError, observe
from cuesim.env.games import GAMES, SPECS
from cuesim.env.reward import REWARDS, RewardWeights
from cuesim.env.vector import CueVecEnv, make_vec

__all__ = ["ENV_IDS", "GAMES", "PLAYERS", "REWARDS", "SPECS", "CueEnv", "CueVecEnv", "EnvError",
           "RewardWeights", "make_vec", "observe"]

ENV_IDS: dict[str, str] = {}
for _game, _spec in SPECS.items():
    for _suffix, _flat in (("", False), ("Flat", True)):
        _id = f"cuesim/{_spec.env_id}{_suffix}-v0"
        ENV_IDS[_id] = _game
        if _id not in gymnasium.registry:
            gymnasium.register(_id, entry_point="cuesim.env.core:CueEnv",
                               vector_entry_point="cuesim.env.vector:CueVecEnv",
                               kwargs={"game": _game, "flatten": _flat})
