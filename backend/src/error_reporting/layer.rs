//! The `tracing` layer that turns logged errors into reports, with the
//! context of the spans they happened in.

use std::fmt::Write;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Context as LayerContext;
use tracing_subscriber::registry::LookupSpan;

use super::{Context, Report, enabled, send};

/// Carried by the process's subscriber; does nothing while reporting is off.
pub struct ReportingLayer;

/// The context fields a span carries (only these are ever read).
#[derive(Default)]
struct SpanContext(Context);

impl Visit for SpanContext {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = format!("{value:?}");
        match field.name() {
            "method" => self.0.method = Some(text),
            "path" => self.0.path = Some(text),
            "command" => self.0.command = Some(text),
            _ => {}
        }
    }
}

/// The message and error of an event (its other fields are not sent: they
/// may name people or carry what they typed).
#[derive(Default)]
struct EventText {
    message: String,
    error: Option<String>,
}

impl Visit for EventText {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        match field.name() {
            "message" => {
                let _ = write!(self.message, "{value:?}");
            }
            "error" => self.error = Some(format!("{value:?}")),
            _ => {}
        }
    }
}

impl<S> Layer<S> for ReportingLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: LayerContext<'_, S>) {
        if !enabled() {
            return;
        }
        let mut context = SpanContext::default();
        attrs.record(&mut context);
        if context.0 != Context::default()
            && let Some(span) = ctx.span(id)
        {
            span.extensions_mut().insert(context);
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: LayerContext<'_, S>) {
        if *event.metadata().level() != Level::ERROR || !enabled() {
            return;
        }
        let mut text = EventText::default();
        event.record(&mut text);
        let mut context = Context::default();
        if let Some(scope) = ctx.event_scope(event) {
            for span in scope {
                if let Some(found) = span.extensions().get::<SpanContext>() {
                    merge(&mut context, &found.0);
                }
            }
        }
        send(Report {
            level: "error",
            message: text.message,
            error: text.error,
            culprit: event.metadata().target().to_string(),
            context,
        });
    }
}

/// Fills what `into` lacks from an enclosing span.
fn merge(into: &mut Context, from: &Context) {
    into.method = into.method.take().or_else(|| from.method.clone());
    into.path = into.path.take().or_else(|| from.path.clone());
    into.command = into.command.take().or_else(|| from.command.clone());
}

/// The context of the span the current thread is in (for a panic).
pub fn current_context() -> Context {
    let mut context = Context::default();
    tracing::dispatcher::get_default(|dispatch| {
        let Some(registry) = dispatch.downcast_ref::<tracing_subscriber::Registry>() else {
            return;
        };
        let Some(id) = dispatch.current_span().id().cloned() else {
            return;
        };
        if let Some(span) = registry.span(&id) {
            for span in span.scope() {
                if let Some(found) = span.extensions().get::<SpanContext>() {
                    merge(&mut context, &found.0);
                }
            }
        }
    });
    context
}
