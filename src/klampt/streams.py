"""Geometry streams.  In Klamp't the only stream protocol is ROS; this
installation has no ROS bridge, so these functions raise RuntimeError
saying so.  Exported by :mod:`klampt.robotsim`."""

_MESSAGE = ("%s: the only stream protocol Klamp't supports is ROS, and ROS is not available "
            "in this installation (protocol %r)")


def _unavailable(fname, protocol):
    raise RuntimeError(_MESSAGE % (fname, protocol))


def subscribe_to_stream(g, protocol, name, type=""):
    """Would subscribe the Geometry3D g to the stream ``name`` of
    ``protocol`` ('ros'); raises RuntimeError (no ROS)."""
    _unavailable('subscribe_to_stream', protocol)


def detach_from_stream(protocol, name):
    """Would unsubscribe from a stream; raises RuntimeError (no ROS)."""
    _unavailable('detach_from_stream', protocol)


def process_streams(protocol="all"):
    """Would process stream subscriptions; raises RuntimeError (no ROS)."""
    _unavailable('process_streams', protocol)


def wait_for_stream(protocol, name, timeout):
    """Would wait for an update on a stream; raises RuntimeError (no
    ROS)."""
    _unavailable('wait_for_stream', protocol)
