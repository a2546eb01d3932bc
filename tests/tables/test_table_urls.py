"""`{% table_action %}`: a table action's URL relative to the table's page, fixed when the
template is read if the action is named by literals, worked out at render otherwise."""

import pytest
from django.template import engines
from django.urls import reverse

from tables.templatetags import table_urls


def _template(source: str):
    return engines["django"].from_string("{% load table_urls %}" + source)


def test_an_action_is_its_url_relative_to_the_table_page():
    page = reverse("table", kwargs={"code": "abc"})
    assert reverse("move_play", kwargs={"code": "abc"}) == page + "jugar/"
    assert _template("{% table_action 'move_play' %}").render({}) == "jugar/"
    assert _template('{% table_action "table" %}').render({}) == "./"
    assert _template("{% table_action 'round_replay' 7 %}").render({}) == "ronda/7/"
    assert _template("{% table_action 'round_replay' rid %}").render({"rid": 12}) == "ronda/12/"
    assert _template("{% table_action name rid %}").render(
        {"name": "round_fairness", "rid": 3}
    ) == "ronda/3/justo/"


def test_an_action_named_by_literals_is_worked_out_once_when_the_template_is_read(monkeypatch):
    literal = _template("<a href='{% table_action 'seat_abandon' %}'>")
    from_context = _template("{% table_action 'round_replay' rid %}")
    table_urls._relative.cache_clear()

    def no_reverse(*args, **kwargs):
        raise AssertionError("reverse() at render")

    monkeypatch.setattr(table_urls, "reverse", no_reverse)
    assert literal.render({}) == "<a href='abandonar/'>"
    with pytest.raises(AssertionError):
        from_context.render({"rid": 1})


def test_a_url_that_is_not_an_action_of_the_table_page_is_refused_as_the_template_is_read():
    with pytest.raises(ValueError, match="not an action of the table page"):
        _template("{% table_action 'seat_return' %}")
