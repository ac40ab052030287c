"""The demo daemon's config for tests that start the real npcd from a config file written
elsewhere: config/npcd.json's definitions and world as absolute paths, simulated players on,
no status line, listening on a free loopback port; `overrides` add or replace keys."""


def demo_config(src, **overrides):
    config = {"listen": "127.0.0.1:0",
              "archetypes_dir": f"{src}/config/archetypes",
              "selection_trees_dir": f"{src}/config/selection_trees",
              "behavior_trees_dir": f"{src}/config/behavior_trees",
              "long_actions": f"{src}/config/long_actions.json",
              "influences": f"{src}/config/actions/influences.json",
              "goap_dir": f"{src}/config/goap", "world": f"{src}/config/demo.json",
              "simulated_players": True, "status_interval_s": 0}
    config.update(overrides)
    return config
