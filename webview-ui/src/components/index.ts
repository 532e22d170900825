/**
 * The only place the webview touches @vscode/webview-ui-toolkit. Swap the toolkit by rewriting this folder.
 */
export { Button, type ButtonProps } from "./Button";
export { Checkbox, type CheckboxProps } from "./Checkbox";
export { Divider } from "./Divider";
export { Icon } from "./Icon";
export { RadioGroup, type RadioOption } from "./RadioGroup";
export { Tag, type Tone } from "./Tag";
export { TextArea } from "./TextArea";
export { TextField } from "./TextField";
