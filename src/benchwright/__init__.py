"""benchwright: grade what AI coding agents build.

Import what you need from the subpackages (`benchwright.model`,
`benchwright.dsl`, `benchwright.checks`, ...); this module stays empty so that
``benchwright --help`` starts fast.
"""

__version__ = "0.1.0"
