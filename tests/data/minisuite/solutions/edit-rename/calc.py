def total(xs):
    return sum(xs)


def report(xs):
    return f"total={total(xs)}"
