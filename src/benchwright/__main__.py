from benchwright.cli import main

main()
