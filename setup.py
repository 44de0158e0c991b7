"""Packaging: the repository's top-level `tasks/`, `training/` and `configs/` install as
`antrap_gym.tasks`, `antrap_gym.training` and `antrap_gym.configs`, so a user's own
`tasks/` or `training/` folder (common in ML repositories) can neither shadow them nor
be shadowed. Metadata, dependencies and extras are in setup.cfg."""

from setuptools import find_packages, setup

#: installed name -> folder in the repository
MAPPED = {"antrap_gym.tasks": "tasks", "antrap_gym.training": "training", "antrap_gym.configs": "configs"}

packages = find_packages(include=["antrap_gym", "antrap_gym.*"])
for name, folder in MAPPED.items():
    packages += [name, *(f"{name}.{sub}" for sub in find_packages(folder))]

setup(packages=packages, package_dir=MAPPED)
