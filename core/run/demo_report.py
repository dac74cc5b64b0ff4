"""The reference run: the finished, sealed report that lesson 1 opens with.

    python3 -m core.run.demo_report --out data/course/report.json
        [--config PATH] [--lab DIR] [--transport inprocess|http]

It reads the operator's configuration (data/policy/training-authorization-0001.json),
loads the lab's adapter and scripted model by the names the configuration
gives (plugins.py), and takes one run through every stage with every
lesson's part: the work loop (lessons 3 to 6), the gate and its scripted
reviews (lesson 8), verification (lesson 7), the close and the seal
(lesson 9) and the safety verdict (lesson 10).

The run is named by the policy and everything else it met: the digest of
every lab fixture and of the model script, and the rest of the
configuration. Edit one fixture and the run identifier changes. The
transport is not part of it: in process or over real loopback HTTP, the
report is the same, byte for byte.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from core.run import report, seal
from core.run.canon import write_artifact
from core.run.commandline import OneLineParser
from core.run.doors import final_door
from core.run.drive import DriveError, HarnessError, load_reviews, run_through
from core.run.gate import Gating, GatingError
from core.run.jsonfile import read_json, shown_path
from core.run.plugins import PluginError, load_plugin
from core.run.policy import Policy, PolicyError
from core.run.recorder import Recorder
from core.run.records import make_run, require_keys
from core.run.verify import Check, CheckError
from core.safety import SafetyPackError, load_safety_pack

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CONFIG = REPO / "data" / "policy" / "training-authorization-0001.json"
DEFAULT_LAB = REPO / "data" / "lab"
CONFIG_FIELDS = ("about", "policy", "gating", "reviewers", "verification", "plugins")
PLUGIN_FIELDS = ("adapter", "model", "world", "server")
TRANSPORTS = ("inprocess", "http")
FINISH_REASON = "every stage ran: work, verification, review and report"


class ConfigError(ValueError):
    """The run configuration cannot be used; the message says which part and why."""


@dataclass(frozen=True)
class Configuration:
    """The operator's configuration, every part validated."""

    raw: dict
    policy: Policy
    gating: Gating
    reviews: dict
    checks: tuple[Check, ...]
    plugins: dict


def load_configuration(path: str | Path) -> Configuration:
    """The configuration in the file at ``path``, or ConfigError naming what is wrong with it."""
    where = shown_path(path)
    raw = read_json(path, error=ConfigError, what="configuration file")
    require_keys(f"{where}: the configuration", raw, CONFIG_FIELDS, error=ConfigError)
    if not isinstance(raw["about"], str) or not raw["about"].strip():
        raise ConfigError(f"{where}: about must say in words what the configuration is for")
    plugins = raw["plugins"]
    require_keys(f"{where}: plugins", plugins, PLUGIN_FIELDS, error=ConfigError)
    if not isinstance(raw["verification"], list):
        raise ConfigError(f"{where}: verification must be a list of checks")
    try:
        policy = Policy.from_dict(raw["policy"])
        gating = Gating.from_dict(raw["gating"])
        reviews = load_reviews(raw["reviewers"])
        checks = tuple(Check.from_dict(entry, f"verification[{index}]")
                       for index, entry in enumerate(raw["verification"]))
    except (PolicyError, GatingError, CheckError, DriveError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return Configuration(raw, policy, gating, reviews, checks, dict(plugins))


def world_of(config: Configuration, lab_world: dict) -> dict:
    """Everything besides the policy that names the run: the lab as found, and the rest of the configuration."""
    rest = ("gating", "reviewers", "verification", "plugins")
    return {"lab": lab_world, **{key: config.raw[key] for key in rest}}


@contextmanager
def lab_adapter(plugins: dict, transport: str, lab_dir: Path):
    """The lab's adapter for ``transport``; over HTTP, the lab is served for the block's duration."""
    with ExitStack() as stack:
        if transport == "http":
            port = stack.enter_context(plugins["server"](lab_dir))
            adapter = plugins["adapter"]("http", None, port)  # the server already knows the lab folder
        else:
            adapter = plugins["adapter"]("inprocess", lab_dir, None)
        stack.callback(adapter.close)  # closed before the server stops
        yield adapter


def run_reference(config: Configuration, lab_dir: Path, transport: str) -> Recorder:
    """Take one run through every stage, up to the report stage; the run is still open."""
    plugins = {name: load_plugin(config.plugins[name]) for name in PLUGIN_FIELDS}
    run = make_run(config.policy.snapshot(), world_of(config, plugins["world"](lab_dir)))
    recorder = final_door(run, config.policy, config.gating)
    model = plugins["model"](lab_dir)
    with lab_adapter(plugins, transport, lab_dir) as adapter:
        run_through(recorder, model, adapter, config.reviews, config.checks)
    return recorder


def sealed_report(config: Configuration, lab_dir: Path, transport: str) -> dict:
    """The reference run, finished, judged against the safety pack and sealed."""
    pack = load_safety_pack()  # fail closed: no run starts without its boundaries
    recorder = run_reference(config, lab_dir, transport)
    closed = seal.finish(recorder, FINISH_REASON)
    if not closed["recorded"]:
        raise HarnessError(f"the run could not be finished: {closed['reason']}")
    return report.seal_run(recorder, pack)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser("demo_report", prog="python3 -m core.run.demo_report",
                           description="Run the reference configuration against the lab and write the sealed report.")
    parser.add_argument("--out", required=True, metavar="PATH", help="where to write the sealed report (JSON)")
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG, metavar="PATH",
                        help="the run configuration (default data/policy/training-authorization-0001.json)")
    parser.add_argument("--lab", type=Path, default=DEFAULT_LAB, metavar="DIR", help="the lab folder (default data/lab)")
    parser.add_argument("--transport", choices=TRANSPORTS, default="inprocess",
                        help="reach the lab in process or over real loopback HTTP (default inprocess)")
    args = parser.parse_args(argv)
    try:
        config = load_configuration(args.config)
        if not (args.lab / "sites").is_dir():
            raise ConfigError(f"--lab {args.lab.name!r} is not a lab folder (it has no sites/)")
        write_artifact(args.out, sealed_report(config, args.lab, args.transport))
    except (ConfigError, PluginError, GatingError, HarnessError, SafetyPackError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{exc.__class__.__name__}: {exc.strerror or exc}")
    except Exception as exc:  # a plugin's own failure (the lab server, a fixture): one line, not a traceback
        return _fail(f"the run failed: {exc.__class__.__name__}: {exc}")
    return 0


def _fail(message: str) -> int:
    """Say what went wrong on one line of stderr; exit status 1."""
    print("demo_report: " + " ".join(message.split()), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
