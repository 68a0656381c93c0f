"""What web/templating uses of Jinja beyond its public API, each as it is used: an upgrade that changes one
fails here, by name, before a push renders wrongly (pyproject.toml keeps jinja2 to the 3.1 series)."""

from __future__ import annotations

import inspect
import traceback
from importlib.metadata import version

import pytest
from jinja2 import Environment, FileSystemLoader, nodes
from jinja2.runtime import new_context

from web.templating.frames import rendered
from web.templating.translated import WordingEnvironment


class Templates(Environment):
    """An environment as `rendered` takes one (WordingEnvironment's `template`)."""

    def template(self, name):
        return self.get_template(name)


def test_the_installed_jinja2_is_the_series_web_templating_was_written_for():
    # After an upgrade check every test below, then change this line and pyproject.toml's pin.
    assert version("jinja2").startswith("3.1.")


def test_a_template_renders_from_new_context_and_its_root_render_func_as_render_does():
    # web/templating/frames.py `rendered`
    assert list(inspect.signature(new_context).parameters) == [
        "environment", "template_name", "blocks", "vars", "shared", "globals", "locals"]
    env = Templates()
    template = env.from_string("{% block b %}{{ greeting }}, {{ name }}{% endblock %}")
    values = {"greeting": "Hello", "name": "Ana"}
    context = new_context(env, template.name, template.blocks, values, shared=True, globals=None)
    assert "".join(template.root_render_func(context)) == template.render(values) == "Hello, Ana"


def test_an_error_in_a_template_rendered_so_names_the_template_and_its_line(tmp_path):
    # `rendered` hands errors to Environment.handle_exception, which points the traceback at the template.
    (tmp_path / "broken.html").write_text("first line\n{{ 1 // zero }}\n")
    env = Templates(loader=FileSystemLoader(tmp_path))
    with pytest.raises(ZeroDivisionError) as raised:
        rendered(env, "broken.html", {"zero": 0})
    frames = traceback.extract_tb(raised.tb)
    assert any(frame.filename.endswith("broken.html") and frame.lineno == 2 for frame in frames)


def test_parse_and_overlay_are_there_as_web_templating_translated_overrides_and_calls_them():
    # WordingEnvironment overrides _parse (each language's words folded in at compile time) and makes
    # each language an overlay with a cache of its own.
    assert list(inspect.signature(Environment._parse).parameters) == ["self", "source", "name", "filename"]
    assert isinstance(Environment()._parse("{{ x }}", "t", None), nodes.Template)
    root = Environment()
    overlay = root.overlay(cache_size=400)
    assert overlay.linked_to is root and overlay.cache is not root.cache
    assert WordingEnvironment._parse is not Environment._parse


def test_the_nodes_web_templating_translated_builds_have_the_fields_it_fills_in_order():
    fields = {nodes.Call: ("node", "args", "kwargs", "dyn_args", "dyn_kwargs"),
              nodes.Filter: ("node", "name", "args", "kwargs", "dyn_args", "dyn_kwargs"),
              nodes.Mod: ("left", "right"), nodes.Dict: ("items",), nodes.Pair: ("key", "value"),
              nodes.Keyword: ("key", "value"), nodes.Getitem: ("node", "arg", "ctx"),
              nodes.Tuple: ("items", "ctx"), nodes.Name: ("name", "ctx"), nodes.Const: ("value",),
              nodes.MarkSafeIfAutoescape: ("expr",)}
    for node, expected in fields.items():
        assert node.fields == expected, node.__name__
