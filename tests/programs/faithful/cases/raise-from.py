# faithful: full
class ConfigError(Exception):
    pass


def load(d):
    try:
        return d['port']
    except KeyError as e:
        raise ConfigError('no port') from e


load({})
