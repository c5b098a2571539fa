# attack: rebind the __metaclass__ name the rewritten class statements use
__metaclass__ = type


class C:
    pass
