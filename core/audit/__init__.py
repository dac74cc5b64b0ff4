"""Audit (lesson 10): check a sealed report by deciding its run again.

``replay.replay`` feeds every event's payload through a fresh door built from
the report's own run, policy and gating, in ledger order, and lists each
decision that comes out differently from the sealed one.

Nothing is imported here: ``python3 -m core.audit.replay`` runs the module as
a script, and importing it from the package first would load it twice.
"""
