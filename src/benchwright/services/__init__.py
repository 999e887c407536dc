"""What the grader runs beside the app: lifecycles, ports, vendor mocks."""
