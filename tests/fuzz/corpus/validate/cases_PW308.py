class A(metaclass=Meta):  # error
    pass
class B(Base):  # ok
    pass
