"""The local results viewer (``benchwright view``) and the one-file HTML report
(``benchwright report --html``): runs, trials and scorecards read from disk, rendered with
the shared web layer (`benchwright.web`) the board uses."""
