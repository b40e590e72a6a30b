"""The repository's publishing metadata: the book workflow, CITATION.cff and .zenodo.json.

The workflow (.github/workflows/book.yml) cannot run on the development machines (no
GitHub runner, no network beyond the package registries); it is linted here against the
GitHub-workflow schema that check-jsonschema vendors (its builtin schemas ship in the
wheel: nothing is downloaded at test time). CITATION.cff is validated against the
official CFF 1.2.0 schema, vendored by check-jsonschema too, and by cffconvert itself in
a virtual environment of its own (cffconvert 2.0.0 pins jsonschema<4, which conflicts
with the locked jsonschema 4): installed offline from the wheel folder that `make test`
downloads (REPLICABILITY_WHEELHOUSE), skipped with that reason when there is none.
"""

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"


def _check_jsonschema(schema, *files):
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema,
                           *map(str, files)], capture_output=True, text=True, timeout=120)


def test_the_book_workflow_lints_clean_against_the_vendored_github_workflow_schema():
    done = _check_jsonschema("vendor.github-workflows", WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_linter_finds_a_broken_workflow(tmp_path):
    broken = yaml.safe_load(WORKFLOW.read_text())
    broken["jobs"]["build"]["runs-on"] = None
    del broken["jobs"]["deploy"]["steps"]
    (tmp_path / "broken.yml").write_text(yaml.safe_dump(broken))
    done = _check_jsonschema("vendor.github-workflows", tmp_path / "broken.yml")
    assert done.returncode == 1 and "Schema validation errors" in done.stdout


def test_the_workflow_runs_the_readme_s_commands_and_deploys_the_built_book():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    assert workflow[True]["push"]["branches"] == ["main"]  # YAML 1.1 reads the key `on` as True
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    runs = "\n".join(step.get("run", "") for step in build["steps"])
    readme = (ROOT / "README.md").read_text()
    for command in ("make test", "make book", "replicability data fetch-uci"):
        assert command in runs and command in readme, command
    assert "--builder linkcheck" in runs
    uses = [step.get("uses", "").split("@")[0] for step in build["steps"] + deploy["steps"]]
    assert "actions/upload-pages-artifact" in uses and "actions/deploy-pages" in uses
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_build/html"
    assert deploy["needs"] == "build" and deploy["permissions"] == {"pages": "write", "id-token": "write"}


def test_citation_cff_is_valid_cff_1_2_0():
    done = _check_jsonschema("vendor.citation-file-format", ROOT / "CITATION.cff")
    assert done.returncode == 0, done.stdout + done.stderr


def test_zenodo_metadata_agrees_with_citation_cff_and_pyproject():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert zenodo["title"] == cff["title"]
    assert zenodo["version"] == cff["version"] and f'version = "{cff["version"]}"' in pyproject
    assert zenodo["license"] == cff["license"] and f'license = "{cff["license"]}"' in pyproject
    assert zenodo["keywords"] == cff["keywords"]
    assert [c["name"] for c in zenodo["creators"]] == [a["name"] for a in cff["authors"]]
    assert zenodo["description"] == " ".join(cff["abstract"].split())
    dois = {r["doi"] for r in cff["references"] if "doi" in r}
    assert {r["identifier"] for r in zenodo["related_identifiers"]} == dois


def test_cffconvert_validates_citation_cff_in_a_venv_of_its_own(tmp_path):
    wheels = os.environ.get("REPLICABILITY_WHEELHOUSE")
    if not wheels or not any(Path(wheels).glob("cffconvert-2.0.0-*.whl")):
        pytest.skip("cffconvert 2.0.0 pins jsonschema<4 (the environment locks 4.x), so it runs in a venv of its "
                    "own installed offline from a wheel folder; `make test` downloads one, or: pip download "
                    "cffconvert==2.0.0 setuptools wheel -d WHEELS and set REPLICABILITY_WHEELHOUSE=WHEELS")
    venv.create(tmp_path / "venv", with_pip=True)  # ensurepip's bundled pip: offline
    python = tmp_path / "venv" / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", "--find-links",
                              wheels, "cffconvert==2.0.0"], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr
    done = subprocess.run([str(tmp_path / "venv" / "bin" / "cffconvert"), "--validate", "--infile",
                           str(ROOT / "CITATION.cff")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Citation metadata are valid according to schema version 1.2.0." in done.stdout
