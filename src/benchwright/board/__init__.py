"""The board: the posting API, its validation and rate limit, storage and the HTML pages.

`benchwright.board.payload` is the posted JSON's contract, `benchwright.board.store` the
database API, `benchwright.board.app.create_app` the web application.
"""
