# shellcheck shell=bash
# Sourced by the gatekit actions' scripts (not an action itself): workflow-command helpers.
# gatekit_command_data TEXT: TEXT as the data of a workflow command (`::error ...::DATA`), with
# GitHub's escapes (% CR LF), so that outside text cannot end the message early nor start a
# command of its own on a new line.
gatekit_command_data() {
  local text="${1//%/%25}"
  text="${text//$'\r'/%0D}"
  printf '%s' "${text//$'\n'/%0A}"
}
