"""Reports: terminal tables, versioned JSON, JUnit XML."""

from benchwright.reports.json_report import SCHEMA_VERSION, gate_dict, write_json
from benchwright.reports.junit import junit_tree, write_junit

__all__ = ["SCHEMA_VERSION", "gate_dict", "junit_tree", "write_json", "write_junit"]
