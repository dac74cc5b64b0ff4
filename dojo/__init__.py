"""The course's door between AgentDojo's agent pipeline and its tools (lesson 12, an optional extra).

AgentDojo (PyPI ``agentdojo``) is a benchmark nobody here wrote: suites of
an assistant's tools (mail, calendar, files, travel bookings, a bank, a chat
workspace), user tasks, injection tasks, attacks that hide an injection in
what a tool returns, and functions that score a run by the state its
environment ends in. This package puts the course's door where AgentDojo's
``ToolsExecutor`` stands, so every tool call is an act the course's own
parts decide:

- ``catalogue``: the operator's data (data/dojo/catalogue.json): each tool's
  action class under taxonomy version 3, its arguments, which of them name
  who or what the act reaches, and the values each suite trusts; turned into
  a core ``Policy`` and ``Gating`` per suite;
- ``provenance``: the rule the user's stand-in reviews by (a consequential
  argument's value must come from the user's own request or a trusted value);
- ``door``: the pipeline element, a door per pair, sealed at the end;
- ``scripted``: the scripted model, the only part that reads ground truth;
- ``measure`` and ``__main__``: the table, scored by AgentDojo's own functions.

``core`` never imports this package, and this package only uses core's
public functions: it assembles a door, it patches nothing.
"""
