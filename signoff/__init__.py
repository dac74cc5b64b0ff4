"""A person signs off on one exact act: a reviewer's decision as a signed note (lesson 8).

A consequential act waits for an approved review of that exact act by its
class's approver role. A review written into the operator's configuration is a
string anyone who can edit that file can change; a signed decision is not. This
package writes and checks decisions as C2SP signed notes, the form lesson 11's
checkpoints already take (tlog/note.py): one signature format in the course,
Ed25519 keys in the same one-line spelling, and a text a person can read before
they sign it. ``decision.py`` says what is signed and how it is checked;
``keys.py`` makes a reviewer's key. It lives outside ``core/`` because it uses
``cryptography``; core reaches it only through the plugin the operator names.
"""
