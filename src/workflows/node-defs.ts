// Reading node definitions in the engine's object_info shape: each class
// `{input: {required, optional, hidden}, input_order, output, output_name, display_name, ...}`,
// each input `[TYPE, options]` or `[[choice, ...], options]` (a combo).
import { isObject as isRecord } from '../protocol/openapi-document.js';

export { isRecord };

export type ObjectInfo = Record<string, unknown>;

export interface InputDef {
  name: string;
  /** INT, FLOAT, STRING, BOOLEAN, COMBO, or a link type such as MODEL or IMAGE. */
  type: string;
  choices?: unknown[];
  options: Record<string, unknown>;
  required: boolean;
}

export interface NodeDef {
  name: string;
  displayName: string;
  inputs: InputDef[];
  outputs: string[];
  outputNode: boolean;
}

function inputDef(name: string, entry: unknown, required: boolean): InputDef {
  const [kind, rawOptions] = Array.isArray(entry) ? entry : [];
  const options = isRecord(rawOptions) ? rawOptions : {};
  if (Array.isArray(kind)) return { name, type: 'COMBO', choices: kind, options, required };
  if (kind === 'COMBO') return { name, type: 'COMBO', choices: Array.isArray(options.options) ? options.options : [], options, required };
  return { name, type: typeof kind === 'string' ? kind : '*', options, required };
}

/** Input names of a group in the engine's order: `input_order` when sent, else the object's key order. */
function orderedNames(def: Record<string, unknown>, group: 'required' | 'optional', specs: Record<string, unknown>): string[] {
  const order = isRecord(def.input_order) ? def.input_order[group] : undefined;
  if (Array.isArray(order) && order.every((n) => typeof n === 'string' && Object.hasOwn(specs, n))) return order as string[];
  return Object.keys(specs);
}

/** The definition of one class, or undefined when object_info has none. */
export function nodeDef(info: ObjectInfo, classType: string): NodeDef | undefined {
  if (!Object.hasOwn(info, classType)) return undefined;
  const def = info[classType];
  if (!isRecord(def)) return undefined;
  const input = isRecord(def.input) ? def.input : {};
  const inputs: InputDef[] = [];
  for (const group of ['required', 'optional'] as const) {
    const specs = isRecord(input[group]) ? input[group] : {};
    for (const name of orderedNames(def, group, specs)) inputs.push(inputDef(name, specs[name], group === 'required'));
  }
  return {
    name: classType,
    displayName: typeof def.display_name === 'string' && def.display_name !== '' ? def.display_name : classType,
    inputs,
    outputs: Array.isArray(def.output) ? def.output.map((t) => (typeof t === 'string' ? t : '*')) : [],
    outputNode: def.output_node === true,
  };
}

const WIDGET_TYPES = new Set(['INT', 'FLOAT', 'STRING', 'BOOLEAN', 'COMBO']);

/** Whether the editor draws this input as a widget (a value on the node) rather than a socket only. */
export function isWidgetInput(input: InputDef): boolean {
  return WIDGET_TYPES.has(input.type) && input.options.forceInput !== true;
}

/** One place in a node's `widgets_values`: an input's value, or an editor-only companion. */
export interface WidgetSlot {
  /** The input the slot belongs to. */
  input: string;
  /** Only the input's own value is sent; companions (control_after_generate, upload button) are not. */
  sent: boolean;
  label: string;
}

const UPLOAD_OPTIONS = ['image_upload', 'video_upload', 'animated_image_upload'];

/** Companion widgets the editor adds after an input's widget (useIntWidget.ts, useComboWidget.ts). */
function companions(input: InputDef): string[] {
  const control = input.options.control_after_generate;
  if (input.type === 'INT' && (control ?? ['seed', 'noise_seed'].includes(input.name))) return ['control_after_generate'];
  // A combo's control gets a filter list too (addValueControlWidgets without addFilterList: false).
  if (input.type === 'COMBO' && control) return ['control_after_generate', 'control_filter_list'];
  return [];
}

/**
 * The slots of `widgets_values` in the editor's order: each widget input in input order (required,
 * then optional), followed by its companions; an `image_upload` combo's upload button is appended
 * to the required inputs (the Comfy.UploadImage extension adds `required.upload` last).
 */
export function widgetSlots(def: NodeDef): WidgetSlot[] {
  const slots: WidgetSlot[] = [];
  const uploads: WidgetSlot[] = [];
  const push = (input: InputDef) => {
    slots.push({ input: input.name, sent: true, label: input.name });
    for (const c of companions(input)) slots.push({ input: input.name, sent: false, label: `${input.name} ${c}` });
  };
  for (const input of def.inputs.filter((i) => i.required)) {
    if (isWidgetInput(input)) push(input);
    if (input.type === 'COMBO' && UPLOAD_OPTIONS.some((o) => input.options[o] === true)) uploads.push({ input: 'upload', sent: false, label: 'upload button' });
  }
  slots.push(...uploads);
  for (const input of def.inputs.filter((i) => !i.required)) if (isWidgetInput(input)) push(input);
  return slots;
}

/** The value a new widget starts with (useIntWidget, useFloatWidget, useStringWidget, useBooleanWidget, useComboWidget). */
export function widgetDefault(input: InputDef): unknown {
  const d = input.options.default;
  switch (input.type) {
    case 'COMBO':
      return d ? d : input.choices?.[0];
    case 'STRING':
      return d ?? '';
    case 'BOOLEAN':
      return d ?? false;
    default:
      return d ?? 0;
  }
}
