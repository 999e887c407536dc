"""The ACE reference trading service: the frozen contract (../../contract/contract.md), done right.

It exists so the black-box scenarios F1-F9 and C2 can be proven on a machine with no
Docker and no Maven repository: they must pass on it, and each seeded-defect variant
(``../variants/*.json``, literal edits to a copy of this package) must fail exactly the
scenarios its defect touches.
"""
