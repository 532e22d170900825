/**
 * The webview's controls: native elements drawn with VS Code's theme variables (controls.css), so they look
 * like the editor's own in light, dark and high-contrast themes. Change the look by rewriting this folder.
 */
import "./controls.css";

export { Button, type ButtonProps } from "./Button";
export { Checkbox, type CheckboxProps } from "./Checkbox";
export { Divider } from "./Divider";
export { Icon } from "./Icon";
export { RadioGroup, type RadioOption } from "./RadioGroup";
export { Tag, type Tone } from "./Tag";
export { TextArea } from "./TextArea";
export { TextField } from "./TextField";
