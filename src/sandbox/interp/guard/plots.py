# SPDX-License-Identifier: Apache-2.0
# plots.py - figures come back as images (trusted code): with matplotlib
# loaded, plt.show() and the figures still open when the program ends are
# saved as PNG files in output/, as a notebook would show them, and a
# savefig() to a path outside output/ says where files are kept.

import io
import os
import sys

from pyward_guard.common import _real_getattr, state


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
