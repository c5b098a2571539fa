# attack: rebind the _write_ guard
_write_ = lambda ob: ob
