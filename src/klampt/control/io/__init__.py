"""Optional back ends of the Robot Interface Layer: ROS 1
(:mod:`.rosinterface`, :mod:`.roscontroller`, needing ``rospy``) and a
JSON-over-socket controller (:mod:`.serialcontroller`)."""
