//! Every text a command or query carries, held to `rules::storable` in one
//! pass before it runs: the socket and `/api/v1` both ask here, so no
//! use-case sees a NUL, damaged text, or text past the longest any field
//! takes. Each field's own rules (characters, lengths) still follow.
//!
//! The pass is a serializer that looks at strings only: bytes (an upload's
//! chunk, a logo) are skipped without being copied.

use protocol::FieldError;
use serde::Serialize;
use serde::ser;

use super::rules::{LONGEST_TEXT, storable};
use crate::error::{AppError, AppResult};

/// Refuses `value` (a `Command`, a `Query`, any frame) when one of its texts
/// cannot be kept, naming each such field as the use-cases name theirs:
/// inside the input a command wraps (`input.mandate.contractReference` is
/// `mandate.contractReference`), or by itself at the top (`customerId`).
pub fn check<T: Serialize + ?Sized>(value: &T) -> AppResult<()> {
    let mut texts = Texts::default();
    // The walk itself never fails: each string's verdict is collected.
    let _ = value.serialize(&mut texts);
    if texts.found.is_empty() {
        Ok(())
    } else {
        Err(AppError::Invalid(texts.found))
    }
}

#[derive(Default)]
struct Texts {
    path: Vec<&'static str>,
    found: Vec<FieldError>,
}

impl Texts {
    fn text(&mut self, value: &str) {
        let Err(code) = storable(value, LONGEST_TEXT) else {
            return;
        };
        let inside = match self.path.as_slice() {
            [_wrapper, rest @ ..] if !rest.is_empty() => rest,
            whole => whole,
        };
        let field = inside.join(".");
        if !self.found.iter().any(|f| f.field == field) {
            self.found.push(FieldError { field, code });
        }
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Stop> {
        self.path.push(key);
        let walked = value.serialize(&mut *self);
        self.path.pop();
        walked
    }
}

type Stop = std::fmt::Error;

impl ser::Serializer for &mut Texts {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_str(self, v: &str) -> Result<(), Stop> {
        self.text(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Stop> {
        self.text(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_bool(self, _: bool) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_i8(self, _: i8) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_i16(self, _: i16) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_i32(self, _: i32) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_i64(self, _: i64) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_u8(self, _: u8) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_u16(self, _: u16) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_u32(self, _: u32) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_u64(self, _: u64) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_f32(self, _: f32) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_f64(self, _: f64) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_none(self) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stop> {
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Texts {
    type Ok = ();
    type Error = Stop;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

impl ser::SerializeTuple for &mut Texts {
    type Ok = ();
    type Error = Stop;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for &mut Texts {
    type Ok = ();
    type Error = Stop;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for &mut Texts {
    type Ok = ();
    type Error = Stop;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

/// A map's keys and values are checked under the map's own name.
impl ser::SerializeMap for &mut Texts {
    type Ok = ();
    type Error = Stop;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Stop> {
        key.serialize(&mut **self)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Texts {
    type Ok = ();
    type Error = Stop;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        self.field(key, value)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Texts {
    type Ok = ();
    type Error = Stop;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        self.field(key, value)
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Command, CustomerInput, ErrorCode, Query};

    fn fields(result: AppResult<()>) -> Vec<(String, ErrorCode)> {
        match result {
            Ok(()) => Vec::new(),
            Err(AppError::Invalid(found)) => found.into_iter().map(|f| (f.field, f.code)).collect(),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn fields_are_named_inside_the_input_a_command_wraps() {
        let command = Command::UpdateCustomer {
            customer_id: "cus\0".into(),
            input: CustomerInput {
                name: "Thandi".into(),
                city: "x".repeat(LONGEST_TEXT + 1),
                email: String::from_utf8_lossy(b"t\xff@example.co.za").into_owned(),
                ..Default::default()
            },
            base_version: None,
        };
        assert_eq!(
            fields(check(&command)),
            vec![
                ("customerId".to_string(), ErrorCode::InvalidCharacters),
                ("email".to_string(), ErrorCode::InvalidCharacters),
                ("city".to_string(), ErrorCode::TooLong),
            ]
        );
    }

    #[test]
    fn lists_and_options_are_named_by_their_field_and_bytes_are_left_alone() {
        let query = Query::ListCustomers {
            search: Some("a\0".into()),
            status: Default::default(),
            cursor: None,
            limit: None,
        };
        assert_eq!(
            fields(check(&query)),
            vec![("search".to_string(), ErrorCode::InvalidCharacters)]
        );
        let endpoint = Command::CreateWebhookEndpoint {
            url: "https://example.co.za/hooks".into(),
            description: String::new(),
            event_types: vec!["payment.paid".into(), "\0".into()],
        };
        assert_eq!(
            fields(check(&endpoint)),
            vec![("eventTypes".to_string(), ErrorCode::InvalidCharacters)]
        );
        let chunk = Command::UploadImportChunk {
            upload_id: "upl_1".into(),
            offset: 0,
            data: vec![0; 1024],
        };
        assert_eq!(check(&chunk).ok(), Some(()));
    }
}
