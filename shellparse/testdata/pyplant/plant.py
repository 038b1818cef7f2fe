open("ran", "w").close()
