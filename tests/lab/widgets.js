// Jupyter widgets in the JupyterLab-stack test page (bundled by lab.js):
// a widget manager on @jupyter-widgets/base-manager, as JupyterLab's own
// (jupyterlab-manager) is, talking to the kernel through @jupyterlab/services
// comms; anywidget's front end (AnyModel, AnyView) from its npm package,
// which ships as an AMD module: lab.js wraps it so that its define hands
// over the factory; and a rendermime factory for the widget view MIME type,
// unsafe as Lab's (an untrusted output falls back to the bundle's HTML).
import { ManagerBase } from '@jupyter-widgets/base-manager';
import * as base from '@jupyter-widgets/base';
import { Widget } from '@lumino/widgets';
import anywidgetAMD from 'anywidget';

export const VIEW_MIME = 'application/vnd.jupyter.widget-view+json';

let anywidget = null;
anywidgetAMD((deps, factory) => { anywidget = factory(base); });

// Manager is a widget manager of one kernel connection.
export class Manager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    kernel.registerCommTarget('jupyter.widget', (comm, msg) => this.handle_comm_open(new base.shims.services.Comm(comm), msg));
    // As JupyterLab's widget manager (jupyterlab_widgets' KernelWidgetManager):
    // a kernel restarting sets every model's comm dead.
    kernel.statusChanged.connect((_, status) => { if (status === 'restarting') this.disconnect(); });
  }

  async loadClass(className, moduleName, moduleVersion) {
    if (moduleName === '@jupyter-widgets/base') return base[className];
    if (moduleName === 'anywidget' && anywidget[className]) return anywidget[className];
    throw new Error(`no module ${moduleName}@${moduleVersion} with ${className} in this page`);
  }

  async _create_comm(target, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(target, modelId);
    if (data || metadata) comm.open(data, metadata, buffers);
    return new base.shims.services.Comm(comm);
  }

  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: 'jupyter.widget' });
    return reply.content.comms;
  }
}

// WidgetRenderer shows a widget view output: the model's view, or what
// JupyterLab says when the model is not there.
class WidgetRenderer extends Widget {
  constructor(options, manager) {
    super();
    this.manager = manager;
    this.addClass('jupyter-widgets');
  }

  async renderModel(model) {
    const source = model.data[VIEW_MIME];
    const manager = this.manager();
    if (!manager || !manager.has_model(source.model_id)) {
      this.node.textContent = 'Error displaying widget: model not found';
      return;
    }
    const wModel = await manager.get_model(source.model_id);
    const view = await manager.create_view(wModel);
    this.node.replaceChildren();
    Widget.attach(view.luminoWidget, this.node);
  }
}

// rendererFactory renders the widget view MIME type with the manager that
// manager() returns (the current kernel's).
export function rendererFactory(manager) {
  return { safe: false, mimeTypes: [VIEW_MIME], defaultRank: 0, createRenderer: (options) => new WidgetRenderer(options, manager) };
}

// insidePoint returns a point of the viewport where el (or its child) is
// the element under the pointer, sampled on a grid over its box, or null.
export function insidePoint(el) {
  const r = el.getBoundingClientRect();
  for (let fy = 0.5; fy < 1; fy += 0.1) {
    for (const sy of [1, -1]) {
      for (let fx = 0.5; fx < 1; fx += 0.1) {
        for (const sx of [1, -1]) {
          const x = r.left + r.width * (sx > 0 ? fx : 1 - fx);
          const y = r.top + r.height * (sy > 0 ? fy : 1 - fy);
          const hit = document.elementFromPoint(x, y);
          if (hit && el.contains(hit)) return { x, y };
        }
      }
    }
  }
  return null;
}
