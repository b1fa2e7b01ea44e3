//! Scene-file overrides: `KEY=VALUE` strings that change keys of a scene file before it is read
//! (`grip run --set`, `grip_scene_load_overrides`, wedges of `grip.batch`).
//!
//! KEY is a dotted path into the file's tables: `solver.default_friction`, `output.frames`.
//! In an array of tables (`[[object]]`, `[[collider]]`, `[[friction]]`, `[[object.pin_group]]`,
//! …) the next part chooses one element, by its 1-based place or by its name: the `name` key, or
//! the default name the scene file gives it (an object's mesh file stem, a collider's
//! `<kind>-<n>`): `object.cloth.youngs_modulus`, `collider.2.radius`, `friction.1.mu`.
//! VALUE is a TOML value (`0.4`, `true`, `[0, 0, -9.81]`, `"lagged"`); text that is not one is
//! taken as a string, so `solver.friction_coupling=lagged` works. Keys missing from the file are
//! added; whether a key exists at all is checked afterwards, as for any key of the file.

use std::path::Path;
use toml::{Table, Value};

/// One override: the dotted path and the value to put there.
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    /// The path's parts: table keys and array selectors.
    pub path: Vec<String>,
    /// The value, parsed as TOML.
    pub value: Value,
    /// The override as written, for messages.
    pub text: String,
}

/// Parses `KEY=VALUE` (spaces around both parts are ignored).
pub fn parse_override(text: &str) -> Result<Override, String> {
    let fail = |m: &str| format!("override \"{text}\": {m}");
    let (key, value) = text.split_once('=').ok_or_else(|| fail("expected KEY=VALUE"))?;
    let path: Vec<String> = key.trim().split('.').map(|p| p.trim().to_string()).collect();
    if path.iter().any(String::is_empty) {
        return Err(fail("the key has an empty part (write e.g. solver.default_friction)"));
    }
    let value = value.trim();
    if value.is_empty() {
        return Err(fail("the value is empty"));
    }
    Ok(Override { path, value: parse_value(value), text: text.to_string() })
}

/// A TOML value, or the text itself as a string when it is not one.
fn parse_value(text: &str) -> Value {
    match format!("v = {text}").parse::<Table>() {
        Ok(mut t) if t.len() == 1 => t.remove("v").unwrap_or_else(|| Value::String(text.into())),
        _ => Value::String(text.into()),
    }
}

/// The name an element of the array `array` (at 1-based place `place`) answers to: its `name`
/// key, else the default the scene file gives it.
fn element_name(array: &str, element: &Table, place: usize) -> Option<String> {
    if let Some(Value::String(name)) = element.get("name") {
        return Some(name.clone());
    }
    match array {
        "object" => match element.get("mesh") {
            Some(Value::String(mesh)) => Path::new(mesh).file_stem().map(|s| s.to_string_lossy().into_owned()),
            _ => None,
        },
        "collider" => match element.get("kind") {
            Some(Value::String(kind)) => Some(format!("{kind}-{place}")),
            _ => None,
        },
        _ => None,
    }
}

/// The element of `items` (the array of tables under key `array`) that `selector` chooses.
fn select<'a>(array: &str, items: &'a mut [Value], selector: &str) -> Result<&'a mut Table, String> {
    let count = items.len();
    let index = match selector.parse::<usize>() {
        Ok(place) if (1..=count).contains(&place) => place - 1,
        Ok(place) => return Err(format!("[[{array}]] #{place} does not exist (the file has {count})")),
        Err(_) => {
            let named = items
                .iter()
                .enumerate()
                .filter(|(i, v)| v.as_table().and_then(|t| element_name(array, t, i + 1)).as_deref() == Some(selector));
            let found: Vec<usize> = named.map(|(i, _)| i).collect();
            match found.as_slice() {
                [i] => *i,
                [] => return Err(format!("no [[{array}]] is named \"{selector}\"")),
                _ => {
                    return Err(format!("{} [[{array}]] tables are named \"{selector}\": use its number", found.len()))
                }
            }
        }
    };
    items[index].as_table_mut().ok_or_else(|| format!("[[{array}]] #{} is not a table", index + 1))
}

/// Puts `o.value` at `o.path` in `table`.
fn apply_one(table: &mut Table, o: &Override) -> Result<(), String> {
    let fail = |m: String| format!("override \"{}\": {m}", o.text);
    let mut current = table;
    let mut i = 0;
    while i + 1 < o.path.len() {
        let key = &o.path[i];
        let entry = current.entry(key.clone()).or_insert_with(|| Value::Table(Table::new()));
        current = match entry {
            Value::Table(t) => t,
            Value::Array(items) if items.iter().all(Value::is_table) => {
                i += 1;
                if i + 1 >= o.path.len() {
                    return Err(fail(format!("choose a key of the [[{key}]] element, e.g. {key}.1.<key>")));
                }
                select(key, items, &o.path[i]).map_err(fail)?
            }
            _ => return Err(fail(format!("\"{key}\" is a value, not a table"))),
        };
        i += 1;
    }
    let last = &o.path[o.path.len() - 1];
    if matches!(current.get(last), Some(Value::Array(items)) if !items.is_empty() && items.iter().all(Value::is_table))
    {
        return Err(fail(format!("\"{last}\" is an array of tables: set one key of one element")));
    }
    current.insert(last.clone(), o.value.clone());
    Ok(())
}

/// Applies `overrides` in order to the parsed scene file `table`.
pub fn apply(table: &mut Table, overrides: &[Override]) -> Result<(), String> {
    overrides.iter().try_for_each(|o| apply_one(table, o))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
[solver]
time_step = 0.01
[[object]]
kind = "shell"
mesh = "meshes/cloth.obj"
[[object]]
kind = "shell"
name = "sail"
mesh = "cloth.obj"
[[object.pin_group]]
min = [0, 0, 0]
max = [1, 1, 1]
[[collider]]
kind = "sphere"
radius = 0.3
[[friction]]
a = "cloth"
b = "sphere-1"
mu = 0.4
"#;

    fn applied(overrides: &[&str]) -> Result<Table, String> {
        let mut t: Table = FILE.parse().unwrap();
        let parsed = overrides.iter().map(|o| parse_override(o)).collect::<Result<Vec<_>, _>>()?;
        apply(&mut t, &parsed)?;
        Ok(t)
    }

    fn object(t: &Table, array: &str, i: usize) -> Table {
        t[array].as_array().unwrap()[i].as_table().unwrap().clone()
    }

    #[test]
    fn values_are_toml_or_bare_strings() {
        assert_eq!(parse_value("0.4"), Value::Float(0.4));
        assert_eq!(parse_value("3"), Value::Integer(3));
        assert_eq!(parse_value("true"), Value::Boolean(true));
        assert_eq!(parse_value("\"lagged\""), Value::String("lagged".into()));
        assert_eq!(parse_value("lagged"), Value::String("lagged".into()));
        assert_eq!(parse_value("[0, 0, -9.81]").as_array().unwrap().len(), 3);
        assert_eq!(parse_value("inf"), Value::Float(f64::INFINITY));
    }

    #[test]
    fn tables_keys_and_elements_by_place_and_name() {
        let t = applied(&[
            "solver.time_step = 0.005",
            "solver.integrator=2",
            "output.frames=12",
            "object.cloth.density=200",
            "object.2.thickness=0.002",
            "object.sail.pin_group.1.max=[2, 2, 2]",
            "collider.sphere-1.radius=0.25",
            "friction.1.mu=0.1",
        ])
        .unwrap();
        assert_eq!(t["solver"]["time_step"].as_float(), Some(0.005));
        assert_eq!(t["solver"]["integrator"].as_integer(), Some(2));
        assert_eq!(t["output"]["frames"].as_integer(), Some(12));
        assert_eq!(object(&t, "object", 0)["density"].as_integer(), Some(200));
        assert_eq!(object(&t, "object", 1)["thickness"].as_float(), Some(0.002));
        let pins = object(&t, "object", 1)["pin_group"].as_array().unwrap()[0].as_table().unwrap().clone();
        assert_eq!(pins["max"].as_array().unwrap()[0].as_integer(), Some(2));
        assert_eq!(object(&t, "collider", 0)["radius"].as_float(), Some(0.25));
        assert_eq!(object(&t, "friction", 0)["mu"].as_float(), Some(0.1));
    }

    #[test]
    fn bad_overrides_name_what_is_wrong() {
        let message = |o: &str| applied(&[o]).unwrap_err();
        assert!(message("solver.time_step").contains("expected KEY=VALUE"));
        assert!(message("solver..time_step=1").contains("empty part"));
        assert!(message("solver.time_step=").contains("value is empty"));
        assert!(message("object.3.density=1").contains("#3 does not exist (the file has 2)"));
        assert!(message("object.shirt.density=1").contains("no [[object]] is named \"shirt\""));
        assert!(message("object.density=1").contains("choose a key"));
        assert!(message("solver.time_step.x=1").contains("is a value, not a table"));
        assert!(message("object=1").contains("array of tables"));
        assert!(message("friction.cloth.mu=1").contains("no [[friction]] is named"));
    }

    #[test]
    fn later_overrides_win_and_new_tables_are_made() {
        let t = applied(&["solver.default_friction=0.1", "solver.default_friction=0.2", "output.name=x"]).unwrap();
        assert_eq!(t["solver"]["default_friction"].as_float(), Some(0.2));
        assert_eq!(t["output"]["name"].as_str(), Some("x"));
    }
}
