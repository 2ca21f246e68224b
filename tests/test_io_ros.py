"""klampt.io.ros: every conversion round trips through the ROS wire format
(Klamp't object -> message -> bytes -> message -> Klamp't object equals the
original), the messages hold what ROS readers expect (quaternion order,
intrinsics matrices, packed colors, image bytes), and publishers, subscribers
and tf broadcasting work through a real roscore."""

import io
import math
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from conftest import aabb_geometry, arm_table_world, assert_close, assert_transform, random_config, wait_for

try:
    from klampt.io import ros
except ImportError as e:
    if os.environ.get("CI"):
        raise
    pytest.skip(str(e), allow_module_level=True)

import random

import klampt
import rospy
from klampt.math import so3, se3
from klampt.model import sensing
from klampt.model.trajectory import RobotTrajectory, SE3Trajectory, SO3Trajectory, Trajectory

# rospy's threads still call Condition.notifyAll
pytestmark = pytest.mark.filterwarnings("ignore:notifyAll:DeprecationWarning")


def wire(msg):
    """msg serialized and read back as ROS does between nodes."""
    buf = io.BytesIO()
    msg.serialize(buf)
    out = msg.__class__()
    out.deserialize(buf.getvalue())
    return out


def f32(values):
    """values rounded to float32, which some messages carry."""
    return np.asarray(values, dtype=np.float32).astype(float)


def random_transform(rng):
    return (so3.from_rpy([rng.uniform(-3, 3), rng.uniform(-1.5, 1.5), rng.uniform(-3, 3)]),
            [rng.uniform(-5, 5) for _ in range(3)])


# ------------------------------------------------------------- import rules

def test_import_klampt_does_not_import_ros():
    code = "import sys, klampt, klampt.io, klampt.model.sensing; print('rospy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_system_packages_do_not_shadow_the_environment():
    """ROS comes from the system Python's packages; numpy stays the environment's own."""
    assert not np.__file__.startswith("/usr/lib/python3/"), np.__file__
    assert "rospy" in sys.modules


def test_missing_ros_is_a_clear_import_error():
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'rospy': raise ImportError('No module named rospy')\n"
            "sys.meta_path.insert(0, Block())\n"
            "try:\n"
            "    import klampt.io.ros\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "python3-rospy" in out.stdout and "python3-sensor-msgs" in out.stdout, out.stdout + out.stderr


def test_public_names_of_both_releases():
    import json
    for release in ("0.10.1", "0.9.2"):
        with open(os.path.join(os.path.dirname(__file__), "data", "public_names_%s.json" % release)) as f:
            names = json.load(f)["modules"]["klampt.io.ros"]
        assert [n for n in names if not hasattr(ros, n)] == [], release


# ------------------------------------------------------- geometry messages

def test_quaternion_order_and_round_trips():
    R = so3.rotation([0, 0, 1], math.pi / 2)
    q = wire(ros.to_Quaternion(R))
    assert_close([q.x, q.y, q.z, q.w], [0, 0, math.sqrt(0.5), math.sqrt(0.5)], atol=1e-12)
    rng = random.Random(3)
    for _ in range(5):
        T = random_transform(rng)
        assert_close(ros.from_Quaternion(wire(ros.to_Quaternion(T[0]))), T[0], atol=1e-12)
        assert_transform(ros.from_Pose(wire(ros.to_Pose(T))), T)
        assert_transform(ros.from_Transform(wire(ros.to_Transform(T))), T)
        assert_close(ros.from_Vector3(wire(ros.to_Vector3(T[1]))), T[1])
        assert_close(ros.from_Point(wire(ros.to_Point(T[1]))), T[1])
        ps = wire(ros.to_PoseStamped(T, stamp=12.5, frame="base"))
        assert ps.header.stamp.to_sec() == 12.5 and ps.header.frame_id == "base"
        assert_transform(ros.from_PoseStamped(ps), T)
        ts = wire(ros.to_TransformStamped(T, "child", "parent", stamp=3))
        assert (ts.child_frame_id, ts.header.frame_id, ts.header.stamp.secs) == ("child", "parent", 3)
        assert_transform(ros.from_TransformStamped(ts), T)
    pose = ros.to_Pose(T)
    assert_close([pose.position.x, pose.position.y, pose.position.z], T[1])
    assert_transform(ros.fromMsg(wire(pose)), T)


def test_generic_dispatch_picks_the_message_type():
    T = (so3.rotation([1, 0, 0], 0.3), [1.0, 2.0, 3.0])
    assert ros.toMsg(T).__class__.__name__ == "Pose"
    assert ros.toMsg([0.5, 0.25]).__class__.__name__ == "Float32MultiArray"
    assert ros.fromMsg(ros.toMsg([0.5, 0.25])) == [0.5, 0.25]
    with pytest.raises(ValueError):
        ros.toMsg(object())
    with pytest.raises(ValueError):
        ros.fromMsg(ros.Image())


def test_float32_multiarray_round_trip():
    v = f32(np.random.RandomState(0).randn(9)).tolist()
    assert ros.from_Float32MultiArray(wire(ros.to_Float32MultiArray(v))) == v


# ------------------------------------------------------ robots and motions

def test_joint_state_round_trip():
    world = arm_table_world()
    robot = world.robot(0)
    rng = random.Random(5)
    q, dq = random_config(robot, rng), [rng.uniform(-1, 1) for _ in range(robot.numLinks())]
    robot.setConfig(q)
    robot.setVelocity(dq)
    torque = [float(i + 1) for i in range(robot.numDrivers())]
    js = wire(ros.to_JointState(robot, effort=torque))
    assert list(js.name) == [robot.link(i).getName() for i in range(robot.numLinks())]
    robot.setConfig([0.0] * robot.numLinks())
    robot.setVelocity([0.0] * robot.numLinks())
    q2, dq2, effort = ros.from_JointState(js, robot)
    assert_close(q2, q)
    assert_close(dq2, dq)
    # each driver's torque lands on the link it drives
    expected = [0.0] * robot.numLinks()
    for i in range(robot.numDrivers()):
        for link in robot.driver(i).getAffectedLinks():
            expected[link] = torque[i]
    assert_close(effort, expected)


def test_joint_state_subset_and_renamed_joints():
    robot = arm_table_world().robot(0)
    names = ["j%d" % i for i in range(robot.numLinks())]
    q = [0.1 * i for i in range(robot.numLinks())]
    js = wire(ros.to_JointState(robot, q=q, dq=None, indices=[2, 4], link_joint_names=names))
    assert list(js.name) == ["j2", "j4"] and list(js.velocity) == []
    robot.setConfig([-1.0] * robot.numLinks())
    q2, dq2, effort = ros.from_JointState(js, robot, {n: i for i, n in enumerate(names)})
    assert q2 == [-1.0, -1.0, 0.2, -1.0, 0.4, -1.0, -1.0]
    assert dq2 is None and effort is None
    with pytest.raises(ValueError):
        ros.from_JointState(js, robot)
    with pytest.raises(ValueError):
        ros.to_JointState(robot, q=[0.0, 1.0])
    with pytest.raises(ValueError):
        ros.to_JointState(robot, q='commanded')


def test_joint_state_of_a_simulated_controller():
    world = arm_table_world()
    sim = klampt.Simulator(world)
    controller = sim.controller(0)
    target = [0.0, 0.3, 0.5, 0.7, 0.1, 0.9, 0.0]
    controller.setPIDCommand(target, [0.0] * 7)
    sim.simulate(0.05)
    js = ros.to_JointState(controller, q='commanded', dq='sensed', effort='commanded')
    assert_close(js.position, controller.getCommandedConfig())
    assert_close(js.velocity, controller.getSensedVelocity())
    js = ros.to_JointState(controller, q='actual', dq=None)
    assert_close(js.position, sim.getActualConfig(0))


def test_joint_trajectory_round_trips():
    traj = Trajectory([0.0, 0.5, 2.0], [[0.0, 1.0, 2.0], [1.5, -1.0, 0.25], [3.0, 4.0, 5.0]])
    msg = wire(ros.to_JointTrajectory(traj))
    assert list(msg.joint_names) == ["0", "1", "2"]
    back = ros.from_JointTrajectory(msg)
    assert back.times == traj.times and back.milestones == traj.milestones

    robot = arm_table_world().robot(0)
    rng = random.Random(2)
    rtraj = RobotTrajectory(robot, [0.0, 1.0, 2.5], [random_config(robot, rng) for _ in range(3)])
    back = ros.from_JointTrajectory(wire(ros.to_JointTrajectory(rtraj)), robot)
    assert isinstance(back, RobotTrajectory)
    assert back.times == rtraj.times
    assert_close(back.milestones, rtraj.milestones)
    # a subset of joints: the others keep the robot's configuration
    robot.setConfig([0.5] * robot.numLinks())
    msg = wire(ros.to_JointTrajectory(rtraj, indices=[1, 3]))
    assert len(msg.points[0].positions) == 2
    back = ros.from_JointTrajectory(msg, robot)
    for q, q0 in zip(back.milestones, rtraj.milestones):
        assert q == [0.5, q0[1], 0.5, q0[3], 0.5, 0.5, 0.5]


def test_path_round_trips():
    rng = random.Random(7)
    Ts = [random_transform(rng) for _ in range(3)]
    path = SE3Trajectory([0.0, 0.25, 1.0], Ts)
    msg = wire(ros.to_Path(path, start_time=100.0, frame="map"))
    assert msg.header.frame_id == "map" and [p.header.stamp.to_sec() for p in msg.poses] == [100.0, 100.25, 101.0]
    back = ros.from_Path(msg)
    assert_close(back.times, path.times, atol=1e-9)
    for m, T in zip(back.milestones, Ts):
        assert_transform(back.to_se3(m), T)
    # a 2D path lies in the z = 0 plane with no rotation
    back = ros.from_Path(wire(ros.to_Path(Trajectory([0, 1], [[1.0, 2.0], [3.0, 4.0]]), start_time=5)))
    assert_transform(back.to_se3(back.milestones[1]), (so3.identity(), [3.0, 4.0, 0.0]))
    rots = SO3Trajectory([0, 1], [Ts[0][0], Ts[1][0]])
    back = ros.from_Path(wire(ros.to_Path(rots, start_time=5)))
    assert_transform(back.to_se3(back.milestones[1]), (Ts[1][0], [0.0, 0.0, 0.0]))


# ----------------------------------------------------------------- shapes

def test_mesh_round_trip():
    geom = aabb_geometry([0, 0, 0], [1, 2, 3], mesh=True)
    mesh = geom.getTriangleMesh()
    back = ros.from_Mesh(wire(ros.to_Mesh(mesh)))
    assert_close(back.getVertices(), mesh.getVertices())
    assert (back.getIndices() == mesh.getIndices()).all()
    # a Geometry3D is sent where it is
    T = (so3.rotation([0, 0, 1], 0.5), [1.0, -2.0, 0.5])
    geom.setCurrentTransform(*T)
    back = ros.from_Mesh(wire(ros.toMsg(geom)))
    assert_close(back.getVertices(), [se3.apply(T, v) for v in mesh.getVertices()], atol=1e-12)


def colored_cloud(n=50, seed=0):
    """A cloud of float32-exact points with r, g, b channels and a packed rgb color."""
    rs = np.random.RandomState(seed)
    pc = klampt.PointCloud()
    pc.setPoints(f32(rs.uniform(-2, 2, (n, 3))))
    for name in ("r", "g", "b", "rgb"):
        pc.addProperty(name)
    rgb = rs.randint(0, 256, (n, 3))
    packed = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    pc.setProperties(np.column_stack([f32(rgb / 255.0), packed.astype(float)]))
    return pc, rgb


def test_point_cloud_round_trip_with_colors():
    pc, rgb = colored_cloud()
    msg = wire(ros.to_PointCloud2(pc, frame="cam", stamp=1.0))
    assert (msg.height, msg.width, msg.point_step) == (1, 50, 28)
    assert [f.name for f in msg.fields] == ["x", "y", "z", "r", "g", "b", "rgb"]
    # ROS readers see the points, and the packed color as the 0xRRGGBB bits of its field
    from sensor_msgs import point_cloud2
    read = np.array(list(point_cloud2.read_points(msg, field_names=("x", "y", "z"))))
    assert_close(read, pc.getPoints())
    words = np.frombuffer(bytes(msg.data), dtype=np.uint32).reshape(50, 7)
    assert (words[:, 6] >> 16 == rgb[:, 0]).all() and (words[:, 6] & 0xff == rgb[:, 2]).all()
    back = ros.from_PointCloud2(msg)
    assert list(back.propertyNames) == ["r", "g", "b", "rgb"]
    assert_close(back.getPoints(), pc.getPoints())
    assert_close(back.getAllProperties(), pc.getAllProperties())


def test_point_cloud_organized_and_transformed():
    pc = klampt.PointCloud()
    pc.setPoints(f32(np.arange(36).reshape(12, 3) * 0.5))
    pc.setSetting("width", "4")
    pc.setSetting("height", "3")
    pc.setSetting("id", "17")
    msg = wire(ros.to_PointCloud2(pc, stamp=0))
    assert (msg.width, msg.height, msg.header.seq) == (4, 3, 17)
    back = ros.from_PointCloud2(msg)
    assert_close(back.getPoints(), pc.getPoints())
    assert (back.getSetting("width"), back.getSetting("height"), back.getSetting("id")) == ("4", "3", "17")
    geom = klampt.Geometry3D(pc)
    geom.setCurrentTransform(so3.identity(), [0.0, 0.0, 1.0])
    back = ros.from_PointCloud2(wire(ros.toMsg(geom, stamp=0)))
    assert_close(back.getPoints(), pc.getPoints() + [0.0, 0.0, 1.0])


def test_point_cloud_from_other_layouts():
    """A big-endian cloud with float64 coordinates, padding and an intensity field."""
    from sensor_msgs.msg import PointCloud2, PointField
    pts = np.array([[1.5, -2.0, 3.25], [0.0, 1e-3, -7.0]])
    rec = np.zeros(2, dtype=[("x", ">f8"), ("y", ">f8"), ("z", ">f8"), ("pad", ">u4"), ("intensity", ">u2"),
                             ("pad2", ">u2")])
    rec["x"], rec["y"], rec["z"], rec["intensity"] = pts[:, 0], pts[:, 1], pts[:, 2], [7, 900]
    msg = PointCloud2(height=1, width=2, is_bigendian=True, point_step=32, row_step=64, data=rec.tobytes(),
                      fields=[PointField("x", 0, PointField.FLOAT64, 1), PointField("y", 8, PointField.FLOAT64, 1),
                              PointField("z", 16, PointField.FLOAT64, 1),
                              PointField("intensity", 28, PointField.UINT16, 1)])
    back = ros.from_PointCloud2(wire(msg))
    assert_close(back.getPoints(), pts)
    assert list(back.propertyNames) == ["intensity"] and back.getAllProperties().ravel().tolist() == [7, 900]
    msg.fields = msg.fields[1:]
    with pytest.raises(ValueError):
        ros.from_PointCloud2(msg)


# ---------------------------------------------------------------- sensors

def camera(world, xres=32, yres=24):
    controller = klampt.Simulator(world).controller(0)
    cam = controller.addSensor("cam", "CameraSensor")
    for k, v in dict(link="0", xres=str(xres), yres=str(yres), rgb="1", depth="1", xfov="1.0", yfov="0.8",
                     zmin="0.1", zmax="10").items():
        cam.setSetting(k, v)
    # from (2, 0, 0.8) looking back along -x at the arm and table
    sensing.set_sensor_xform(cam, (so3.from_matrix([[0, 0, -1], [1, 0, 0], [0, -1, 0]]), [2.0, 0.0, 0.8]))
    return controller, cam


def test_camera_info_round_trips():
    world = arm_table_world()
    _, cam = camera(world, 320, 240)
    info = wire(ros.to_CameraInfo(cam))
    fx, fy = 160 / math.tan(0.5), 120 / math.tan(0.4)
    assert (info.width, info.height) == (320, 240)
    assert_close(info.K, [fx, 0, 160, 0, fy, 120, 0, 0, 1], atol=1e-9)
    assert_close(info.P, [fx, 0, 160, 0, 0, fy, 120, 0, 0, 0, 1, 0], atol=1e-9)
    _, cam2 = camera(world, 10, 10)
    ros.from_CameraInfo(info, cam2)
    for key in ("xres", "yres", "xfov", "yfov"):
        assert float(cam2.getSetting(key)) == pytest.approx(float(cam.getSetting(key)), abs=1e-12)
    # The (w - 1) / 2 convention for the centre is the centre; a principal point off it is refused.
    info.K = [fx, 0, 159.5, 0, fy, 119.5, 0, 0, 1]
    ros.from_CameraInfo(info, cam2)
    info.K = [fx, 0, 100.0, 0, fy, 120, 0, 0, 1]
    with pytest.raises(ValueError, match="principal point"):
        ros.from_CameraInfo(info, cam2)
    vp = klampt.Viewport()
    vp.w, vp.h, vp.fx, vp.fy, vp.cx, vp.cy = 640, 480, 500.0, 510.0, 320.5, 239.0
    vp2 = ros.from_CameraInfo(wire(ros.to_CameraInfo(vp)), klampt.Viewport())
    assert (vp2.w, vp2.h, vp2.fx, vp2.fy, vp2.cx, vp2.cy) == (640, 480, 500.0, 510.0, 320.5, 239.0)
    from klampt._viewport import GLViewport
    glvp = GLViewport()
    glvp.w, glvp.h, glvp.fov = 400, 300, 60.0
    glvp2 = GLViewport()
    ros.from_CameraInfo(wire(ros.to_CameraInfo(glvp)), glvp2)
    assert (glvp2.w, glvp2.h) == (400, 300) and glvp2.fov == pytest.approx(60.0)


def test_camera_images_match_the_measurements():
    world = arm_table_world()
    _, cam = camera(world)
    cam.kinematicReset()
    cam.kinematicSimulate(world, 0.01)
    rgb, depth = sensing.camera_to_images(cam)
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 2 and depth.min() < depth.max()
    info, rgb_msg, depth_msg = [wire(m) for m in ros.to_SensorMsg(cam, stamp=2.0)]
    assert info.header.frame_id == rgb_msg.header.frame_id == "klampt/arm6/cam"
    assert (rgb_msg.encoding, rgb_msg.step, depth_msg.encoding) == ("rgb8", 96, "32FC1")
    assert (np.frombuffer(bytes(rgb_msg.data), np.uint8).reshape(24, 32, 3) == rgb).all()
    dtype = ">f4" if depth_msg.is_bigendian else "<f4"
    assert_close(np.frombuffer(bytes(depth_msg.data), dtype).reshape(24, 32), f32(depth))


def test_other_sensor_messages():
    world = arm_table_world()
    sim = klampt.Simulator(world)
    controller = sim.controller(0)
    sim.simulate(0.01)
    joints = controller.sensor(0)
    msg = wire(ros.to_SensorMsg(joints, frame="j"))
    assert ros.from_Float32MultiArray(msg) == f32(joints.getMeasurements()).tolist()
    ft = controller.addSensor("ft", "ForceTorqueSensor")
    ft.setSetting("link", "6")
    sim.simulate(0.01)
    wrench = wire(ros.to_SensorMsg(ft, frame_prefix=None))
    assert wrench.header.frame_id == "arm6/ft"
    m = ft.getMeasurements()
    assert_close([wrench.wrench.force.x, wrench.wrench.force.y, wrench.wrench.force.z,
                  wrench.wrench.torque.x, wrench.wrench.torque.y, wrench.wrench.torque.z], m)
    laser = controller.addSensor("lidar", "LaserRangeSensor")
    for k, v in dict(link="0", measurementCount="90", xSweepMagnitude="1.5", depthMaximum="5",
                     depthMinimum="0.1").items():
        laser.setSetting(k, v)
    sensing.set_sensor_xform(laser, (so3.from_matrix([[0, 0, -1], [1, 0, 0], [0, -1, 0]]), [2.0, 0.0, 0.8]))
    laser.kinematicReset()
    laser.kinematicSimulate(world, 0.01)
    scan = wire(ros.to_SensorMsg(laser))
    assert (scan.angle_min, scan.angle_max, scan.range_max) == (-1.5, 1.5, 5.0)
    assert_close(scan.ranges, f32(laser.getMeasurements()))


# ------------------------- through a roscore (conftest.ros_node, shared by the session)

def test_publish_and_subscribe_joint_states(ros_node):
    world, world2 = arm_table_world(), arm_table_world()
    robot, robot2 = world.robot(0), world2.robot(0)
    q = random_config(robot, random.Random(11))
    robot.setConfig(q)
    pub = ros.object_publisher("/klampt_test/joint_states", robot)
    sub = ros.object_subscriber("/klampt_test/joint_states", robot2)
    wait_for(lambda: pub.get_num_connections() > 0, what="the subscriber to connect")
    pub.publish(robot)
    wait_for(lambda: np.allclose(robot2.getConfig(), q, atol=1e-12), what="the joint state")
    assert_close(robot2.getConfig(), q)
    sub.unregister()
    pub.unregister()


def test_publish_and_subscribe_point_clouds(ros_node):
    pc, _ = colored_cloud(200, seed=4)
    received = []
    pub = ros.publisher("/klampt_test/cloud", "PointCloud", convert_kwargs={"frame": "cam"}, queue_size=2)
    sub = ros.subscriber("/klampt_test/cloud", "PointCloud", received.append)
    wait_for(lambda: pub.get_num_connections() > 0, what="the subscriber to connect")
    pub.publish(pc)
    wait_for(lambda: received, what="the point cloud")
    back = received[0]
    assert_close(back.getPoints(), pc.getPoints())
    assert_close(back.getAllProperties()[:, 3], pc.getAllProperties()[:, 3])
    sub.unregister()
    pub.unregister()


def test_broadcast_tf_reads_back_through_tf2(ros_node):
    import tf2_ros
    world = arm_table_world()
    robot = world.robot(0)
    robot.setConfig(random_config(robot, random.Random(8)))
    buffer = tf2_ros.Buffer()
    listener = tf2_ros.TransformListener(buffer)
    broadcaster = tf2_ros.TransformBroadcaster()
    last = robot.link(robot.numLinks() - 1)
    target, base = "klampt/arm6/" + last.getName(), "klampt/arm6/" + robot.link(0).getName()

    def arrived():
        ros.broadcast_tf(broadcaster, world, stamp='now')
        return buffer.can_transform("world", target, rospy.Time(0)) and buffer.can_transform(
            "world", "klampt/" + world.rigidObject(0).getName(), rospy.Time(0))
    wait_for(arrived, what="the tf frames")
    # the flange's pose in the world composes the links' frames
    T = ros.from_TransformStamped(buffer.lookup_transform("world", target, rospy.Time(0)))
    assert_transform(T, last.getTransform(), atol=1e-9)
    T = ros.from_TransformStamped(buffer.lookup_transform(base, target, rospy.Time(0)))
    assert_transform(T, se3.mul(se3.inv(robot.link(0).getTransform()), last.getTransform()), atol=1e-9)
    # listen_tf puts them on another copy of the world
    world2 = arm_table_world()
    ros.listen_tf(buffer, world2, onerror='raise')
    for i in range(robot.numLinks()):
        assert_transform(world2.robot(0).link(i).getTransform(), robot.link(i).getTransform(), atol=1e-9)
    for i in range(world.numRigidObjects()):
        assert_transform(world2.rigidObject(i).getTransform(), world.rigidObject(i).getTransform(), atol=1e-9)
    assert ros.listen_tf(buffer, None, "no_such_frame") is None
    with pytest.raises(tf2_ros.TransformException):
        ros.listen_tf(buffer, None, "no_such_frame", onerror='raise')
    listener.unregister()


def test_camera_publisher_sends_info_and_images(ros_node):
    from sensor_msgs.msg import CameraInfo, Image
    world = arm_table_world()
    _, cam = camera(world)
    cam.kinematicReset()
    cam.kinematicSimulate(world, 0.01)
    rgb, depth = sensing.camera_to_images(cam)
    got = {}
    subs = [rospy.Subscriber("/klampt_test/cam/" + name, cls, lambda m, name=name: got.setdefault(name, m))
            for name, cls in (("rgb/camera_info", CameraInfo), ("rgb/image_rect_color", Image),
                              ("depth_registered/image_rect", Image))]
    pub = ros.object_publisher("/klampt_test/cam", cam, queue_size=2)
    pub.publish(cam)
    wait_for(lambda: pub.rgbpub.get_num_connections() > 0 and pub.dpub.get_num_connections() > 0,
             what="the image subscribers")

    def arrived():
        pub.publish(cam)
        time.sleep(0.05)
        return len(got) == 3
    wait_for(arrived, what="the camera messages")
    assert got["rgb/image_rect_color"].header.frame_id == "arm6/base"
    assert (got["rgb/camera_info"].width, got["rgb/camera_info"].height) == (32, 24)
    assert (np.frombuffer(bytes(got["rgb/image_rect_color"].data), np.uint8).reshape(24, 32, 3) == rgb).all()
    depth_msg = got["depth_registered/image_rect"]
    dtype = ">f4" if depth_msg.is_bigendian else "<f4"
    assert_close(np.frombuffer(bytes(depth_msg.data), dtype).reshape(24, 32), f32(depth))
    for sub in subs:
        sub.unregister()


def test_object_subscriber_commands_a_controller(ros_node):
    world = arm_table_world()
    sim = klampt.Simulator(world)
    controller = sim.controller(0)
    robot = arm_table_world().robot(0)
    q = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 0.0]
    robot.setConfig(q)
    pub = ros.publisher("/klampt_test/command", "RobotModel", convert_kwargs={"dq": None}, queue_size=2)
    sub = ros.object_subscriber("/klampt_test/command", controller)
    wait_for(lambda: pub.get_num_connections() > 0, what="the subscriber to connect")
    pub.publish(robot)
    wait_for(lambda: np.allclose(controller.getCommandedConfig(), q, atol=1e-12), what="the PID command")
    assert_close(controller.getCommandedVelocity(), [0.0] * 7)
    sub.unregister()
    pub.unregister()
