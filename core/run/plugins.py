"""Plugins: load what plugs into a run by the name the operator's configuration gives.

``core`` may not import the lab, or any third-party library: the harness a
student reads must stand on the standard library alone, and an import-gate
test holds it to that. Yet a run needs an adapter and a model, and the lab
provides both. So the configuration names them, as text such as
``"lab.plugin:make_adapter"``, and ``load_plugin`` imports that name when
the run starts. It is the way a WSGI server loads an application, or a
packaging tool an entry point: the operator's file says what plugs in, and
the code that loads it names nothing in particular.

Loading a plugin runs its module's code, so a plugin name is as trusted as
the rest of the operator's configuration; nothing a model writes reaches it.
"""

from __future__ import annotations

import importlib

from core.run.records import shown


class PluginError(ValueError):
    """A plugin name is malformed, or names nothing callable that can be imported."""


def load_plugin(name: object) -> object:
    """The callable named ``"package.module:attribute"`` (the attribute may be dotted)."""
    if not isinstance(name, str) or name.count(":") != 1:
        raise PluginError(f"plugin {shown(name)} must be written 'package.module:attribute'")
    module_name, attribute = name.split(":")
    parts = attribute.split(".")
    if not all(part.isidentifier() for part in module_name.split(".") + parts):
        raise PluginError(f"plugin {shown(name)} must be written 'package.module:attribute'")
    try:
        found = importlib.import_module(module_name)
    except ImportError as exc:
        raise PluginError(f"plugin {name}: cannot import {module_name} ({exc.__class__.__name__}: {exc})") from None
    for part in parts:
        found = getattr(found, part, None)
    if not callable(found):
        raise PluginError(f"plugin {name}: {module_name} has no callable {attribute}")
    return found


def load_model(entry: object, lab_dir: object, catalogue: list[dict]) -> object:
    """The run's model, made by the factory the configuration's ``plugins.model`` names.

    ``entry`` is that field: a plugin name, whose factory is called with the
    lab folder alone (``factory(lab_dir)``, the scripted model); or an object
    ``{"factory": name, ...settings}``, whose factory is called as
    ``factory(lab_dir, catalogue=catalogue, **settings)``, ``catalogue`` being
    the policy's tools as the policy snapshot writes them. Either way the
    factory returns a function from prompt text to reply text. Every setting
    is part of the configuration, so it names the run: two endpoints or two
    model names never make the same run. A secret is never a setting; a
    factory reads it from its own environment.
    """
    if not isinstance(entry, dict):
        return load_plugin(entry)(lab_dir)
    settings = {key: value for key, value in entry.items() if key != "factory"}
    if "factory" not in entry or "catalogue" in settings or not all(isinstance(key, str) and key.isidentifier()
                                                                    for key in settings):
        raise PluginError("plugins.model as an object needs 'factory' (a plugin name) and settings named by "
                          "identifiers other than 'catalogue'")
    return load_plugin(entry["factory"])(lab_dir, catalogue=catalogue, **settings)
