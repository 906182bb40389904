def greet(name):
    return "hello from the helper, %s" % name
