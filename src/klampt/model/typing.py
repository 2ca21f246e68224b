"""Type aliases used in the annotations of Klamp't functions."""
from typing import List, Sequence, Tuple

Vector = Sequence[float]
Vector2 = Sequence[float]
Vector3 = Sequence[float]
Point = Sequence[float]
Matrix3 = Sequence[Sequence[float]]
Rotation = Sequence[float]
RigidTransform = Tuple[Sequence[float], Sequence[float]]
IntArray = Sequence[int]
StringArray = Sequence[str]
Config = Vector
Configs = List[Vector]
