# SPDX-License-Identifier: Apache-2.0
# plots.py - figures come back as images (trusted code): with matplotlib
# loaded, plt.show() and the figures still open when the program ends are
# saved as PNG files in output/, as a notebook would show them, and a
# savefig() to a path outside output/ says where files are kept; display()
# shows a value as a notebook would: a table as markdown, a figure or an
# image as a PNG in output/.

import io
import os
import sys

from pyward_guard.attrs import guarded_getattr
from pyward_guard.common import _real_getattr, _real_type, short_repr, state


FIGURE_DIR = "output"


def output_dir():
    """The run's output/ directory (absolute), or None when the run has
    none (output files are not collected)."""
    d = os.path.join(state.get("scratch") or ".", FIGURE_DIR)
    return d if os.path.isdir(d) else None


def free_figure_path(d):
    """output/figure-N.png with the first N no file of the program has
    taken."""
    n = state.get("figures", 0)
    while True:
        n += 1
        path = os.path.join(d, f"figure-{n}.png")
        if not os.path.exists(path):
            state["figures"] = n
            return path


def save_figures(nums=None):
    """Save the open figures (or those numbered NUMS) to output/ and close
    them; without an output/ directory they are only closed."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    d = output_dir()
    for num in list(plt.get_fignums() if nums is None else nums):
        fig = plt.figure(num)
        if d is not None:
            state["real_savefig"](fig, free_figure_path(d), format="png")
        plt.close(fig)


def plot_show(*args, **kwargs):
    save_figures()


def figure_show(fig, *args, **kwargs):
    num = _real_getattr(fig, "number", None)
    if num is not None:
        save_figures([num])


def end_of_run():
    """The figures still open when the program ends, but those it saved
    to output/ itself."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    saved = state.get("saved_figures", ())
    save_figures([n for n in plt.get_fignums()
                  if id(plt.figure(n)) not in saved])


def outside_output(fname):
    """The path FNAME names when it is a path outside output/, else None
    (a file object, or a path inside output/)."""
    if not isinstance(fname, (str, bytes, os.PathLike)):
        return None
    path = os.fsdecode(os.fspath(fname))
    base = os.path.join(state.get("scratch") or os.getcwd(), FIGURE_DIR)
    full = os.path.normpath(os.path.join(
        state.get("scratch") or os.getcwd(), path))
    return None if full.startswith(base + os.sep) else path


def savefig_checked(real):
    def savefig(fig, fname, *args, **kwargs):
        path = outside_output(fname)
        if path is not None:
            name = os.path.basename(path) or "figure.png"
            raise PermissionError(
                f"cannot save '{path}': the sandbox keeps only the files "
                f"written under output/, and returns them with the result;"
                f" save it as 'output/{name}'")
        state.setdefault("saved_figures", set()).add(id(fig))
        return real(fig, fname, *args, **kwargs)
    savefig.__name__ = "savefig"
    return savefig


def adapt_plots():
    """In the zygote, once matplotlib is loaded: pyplot.show saves the
    figures, Figure.savefig checks its path first."""
    plt = sys.modules.get("matplotlib.pyplot")
    figure = sys.modules.get("matplotlib.figure")
    if plt is None or figure is None:
        return
    real = figure.Figure.savefig
    state["real_savefig"] = real
    figure.Figure.savefig = savefig_checked(real)
    figure.Figure.show = figure_show
    plt.show = plot_show


def warm_plot():
    """In a spare child, the last step of its warm-up (a generator, as
    warmup()): draw a figure as a run would, through pyplot, to PNG in
    memory, then close it.  A figure copies ~2,800 of the zygote's pages
    the first time in a process; drawn here while the spare waits, a
    run's own figure finds them copied.  Nothing stays: the figure is
    closed, also when the request stops the warm-up half-way (pyplot
    numbers a new figure from the open ones, so the run's first is still
    1), and the state's figure bookkeeping is not used."""
    plt = sys.modules.get("matplotlib.pyplot")
    np = sys.modules.get("numpy")
    if plt is None or np is None or "real_savefig" not in state:
        return
    yield
    fig, ax = plt.subplots()
    try:
        x = np.linspace(0, 6.28, 100)
        ax.plot(x, np.sin(x), label="warm")
        ax.set_title("warm")
        ax.legend()
        yield  # a request now closes the generator: the figure too
        state["real_savefig"](fig, io.BytesIO(), format="png")
    finally:
        plt.close(fig)


def prerender():
    """In the zygote: draw one small figure with text, ticks and a line to
    PNG in memory, so the font, text layout and tick caches a run's first
    figure needs are warm and shared by every child."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [0, 1, 0], label="warm")
    ax.set_title("warm")
    ax.set_xlabel("x")
    ax.legend()
    state["real_savefig"](fig, io.BytesIO(), format="png")
    plt.close(fig)


# The rows and columns of a table display() shows.
TABLE_ROWS = 60
TABLE_COLUMNS = 20


def cell(v):
    """V as a markdown table cell: one line, '|' escaped."""
    text = str(v).replace("\\", "\\\\").replace("|", "\\|")
    return " ".join(text.split()) or " "


def pandas_table(obj):
    """The markdown table of a pandas DataFrame or Series (its first
    TABLE_ROWS rows and TABLE_COLUMNS columns), or None for anything
    else."""
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    if isinstance(obj, pd.Series):
        obj = obj.to_frame()
    if not isinstance(obj, pd.DataFrame):
        return None
    nrows, ncols = obj.shape
    part = obj.iloc[:TABLE_ROWS, :TABLE_COLUMNS]
    names = [n for n in part.index.names if n is not None]
    head = [cell(", ".join(map(str, names)))] + [cell(c) for c in
                                                 part.columns]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for idx, row in zip(part.index, part.itertuples(index=False)):
        lines.append("| " + " | ".join(
            [cell(idx)] + [cell(v) for v in row]) + " |")
    if nrows > TABLE_ROWS or ncols > TABLE_COLUMNS:
        lines.append(f"\n[{nrows} rows x {ncols} columns: the first "
                     f"{min(nrows, TABLE_ROWS)} rows and "
                     f"{min(ncols, TABLE_COLUMNS)} columns shown]")
    return "\n".join(lines)


def program_repr(obj, name):
    """OBJ's NAME (_repr_markdown_, _repr_png_) called as the program
    itself could (the attribute guard decides: a class of the program's
    own may have one, a library's private method stays out of reach), or
    None."""
    try:
        f = guarded_getattr(obj, name, None)
        return f() if callable(f) else None
    except Exception:  # noqa: BLE001 - a rich form is a courtesy
        return None


def save_png(data):
    """Write the PNG DATA to output/display-N.png; False without an
    output/ directory."""
    d = output_dir()
    if d is None:
        return False
    n = state.get("displays", 0)
    while True:
        n += 1
        path = os.path.join(d, f"display-{n}.png")
        if not os.path.exists(path):
            break
    state["displays"] = n
    with open(path, "xb") as f:
        f.write(data)
    return True


def display(*objs):
    """As a notebook's display(): a matplotlib figure comes back as an
    image (output/figure-N.png), a pandas table is printed as a markdown
    table, a value whose class gives _repr_png_ comes back as an image and
    one that gives _repr_markdown_ (or _repr_html_) is printed as that
    text; anything else
    is printed as its repr."""
    plt = sys.modules.get("matplotlib.pyplot")
    for obj in objs:
        if plt is not None and isinstance(obj, sys.modules[
                "matplotlib.figure"].Figure):
            figure_show(obj)
            continue
        table = pandas_table(obj)
        if table is not None:
            print(table)
            continue
        png = program_repr(obj, "_repr_png_")
        if _real_type(png) is bytes and png.startswith(b"\x89PNG") and \
                save_png(png):
            continue
        md = markdown_of(obj)
        if md is not None:
            print(md)
            continue
        print(short_repr(obj, 100000))


def rich_result(value):
    """The rich form of a final expression's VALUE, as a notebook shows
    it: a pandas table's markdown, or the text of the _repr_markdown_ (or
    _repr_html_) of a class of the program's own; one that gives _repr_png_ is saved as an
    image instead.  None when it has none."""
    try:
        table = pandas_table(value)
    except Exception:  # noqa: BLE001 - a rich form is a courtesy
        table = None
    if table is not None:
        return table
    png = program_repr(value, "_repr_png_")
    if _real_type(png) is bytes and png.startswith(b"\x89PNG"):
        try:
            save_png(png)
        except OSError:
            pass
        return None
    return markdown_of(value)


def markdown_of(obj):
    """The text of OBJ's _repr_markdown_, else of its _repr_html_ (HTML
    stands in markdown as it is), for a class of the program's own; or
    None."""
    for name in ("_repr_markdown_", "_repr_html_"):
        text = program_repr(obj, name)
        if _real_type(text) is str:
            return text
    return None
