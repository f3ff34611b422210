"""Engine kinds: what an engine of each `kind:` in engines.yaml is, how it is started, and
what identifies it.

Every kind is one `EngineKind` subclass registered in `KINDS` under the name the engines
file uses; nothing outside this module asks which kind an engine is. Eval runs,
translation runs and the autobench LLM generator all reach an engine the same way
(`send.py`): `kind.serve(engine, needs)` gives the base URL to send to for the duration
of a run, and every request goes through the one OpenAI-compatible client.

    openai      a server you run (vLLM, SGLang, llama.cpp, TGI, a hosted API): base_url required
    simulator   the reference simulator, started in this process on 127.0.0.1 for the run,
                answering from the same corpus; its `simulator:` block is a profile

A new kind (say, one that launches a vLLM container for the run) subclasses EngineKind,
says which of the engine's fields it needs in `check`, and decorates itself with
`@register`.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from atlas_assets.core.errors import validation_messages
from atlas_assets.core.hashing import sha256_json
from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT

if TYPE_CHECKING:
    from atlas_assets.evals.engines import Engine
    from atlas_assets.simulator.profiles import SimulatorProfile

__all__ = ["KINDS", "EngineKind", "Needs", "kind_of", "register"]


@dataclass(frozen=True)
class Needs:
    """What a started engine has to know about the run: the corpus a simulator answers
    eval rows from and the translation corpora it answers translation prompts from."""

    datasets_root: Path = DEFAULT_DATASETS_ROOT
    translation_corpora: tuple[Path, ...] = field(default_factory=tuple)


class EngineKind(ABC):
    """One kind of engine. Subclasses set `name` and `summary` and implement the methods."""

    name: ClassVar[str]
    summary: ClassVar[str]

    @abstractmethod
    def check(self, engine: Engine) -> None:
        """Refuse (ValueError) an engine definition this kind cannot use."""

    @abstractmethod
    def serve(self, engine: Engine, needs: Needs) -> contextlib.AbstractContextManager[str]:
        """The base URL to send to, valid while the context is open."""

    @abstractmethod
    def identity(self, engine: Engine) -> dict[str, Any]:
        """What makes two runs' requests go to 'the same engine' (part of every row
        fingerprint). Never a secret, never something that changes between starts."""

    def default_model(self, engine: Engine) -> str | None:
        """The model to send when none is given and the server does not list exactly one."""
        return None

    def where(self, engine: Engine) -> str:
        """Where requests go, for listings."""
        return engine.base_url or ""

    def details(self, engine: Engine) -> dict[str, Any]:
        """Kind-specific facts recorded in a run's `engine` block."""
        return {}


KINDS: dict[str, EngineKind] = {}


def register(cls: type[EngineKind]) -> type[EngineKind]:
    if cls.name in KINDS:
        raise ValueError(f"engine kind {cls.name!r} is registered twice")
    KINDS[cls.name] = cls()
    return cls


def kind_of(engine: Engine) -> EngineKind:
    return KINDS[engine.kind]


@register
class OpenAICompatible(EngineKind):
    name = "openai"
    summary = "an OpenAI-compatible server you run or rent (base_url required)"

    def check(self, engine: Engine) -> None:
        if not engine.base_url:
            raise ValueError("an openai engine needs base_url")
        if engine.simulator is not None:
            raise ValueError("only simulator engines take a `simulator:` block")

    @contextlib.contextmanager
    def serve(self, engine: Engine, needs: Needs) -> Iterator[str]:
        yield engine.base_url or ""

    def identity(self, engine: Engine) -> dict[str, Any]:
        return {"kind": self.name, "base_url": engine.base_url, "model": engine.model}


@register
class Simulator(EngineKind):
    name = "simulator"
    summary = "the reference simulator, started on 127.0.0.1 for the run (a `simulator:` profile)"

    def check(self, engine: Engine) -> None:
        if engine.simulator is None:
            raise ValueError("a simulator engine needs a `simulator:` block")
        if engine.base_url is not None:
            raise ValueError("a simulator engine has no base_url (it is started on 127.0.0.1)")
        self.profile(engine)

    @staticmethod
    def profile(engine: Engine) -> SimulatorProfile:
        """The simulator profile of the engine's `simulator:` block (simulator/profiles.py)."""
        from pydantic import ValidationError

        from atlas_assets.simulator.profiles import ProfileError, SimulatorProfile

        try:
            return SimulatorProfile.from_block(engine.simulator or {}, name=engine.name or "simulator", model=engine.model)
        except ValidationError as exc:
            details = "; ".join(f"{field}: {message}" for field, message in validation_messages(exc, ("simulator",)))
            raise ValueError(details) from None
        except ProfileError as exc:
            raise ValueError(f"simulator: {exc}") from None

    @contextlib.contextmanager
    def serve(self, engine: Engine, needs: Needs) -> Iterator[str]:
        from atlas_assets.simulator.handle import start_simulator

        with start_simulator(
            self.profile(engine),
            host="127.0.0.1",
            port=0,
            datasets_root=needs.datasets_root,
            translation_corpora=list(needs.translation_corpora) or None,
        ) as handle:
            yield handle.base_url

    def identity(self, engine: Engine) -> dict[str, Any]:
        """A simulator's port changes on every start, so it is identified by its settings."""
        profile = self.profile(engine)
        return {"kind": self.name, "model": profile.model, "profile_sha256": sha256_json(profile.model_dump(mode="json"))}

    def default_model(self, engine: Engine) -> str | None:
        return self.profile(engine).model

    def where(self, engine: Engine) -> str:
        return "simulator (started on 127.0.0.1)"

    def details(self, engine: Engine) -> dict[str, Any]:
        return {"simulator_profile": self.profile(engine).model_dump(mode="json")}
