//! Selling on the pay page: the merchant's pay pages, the orders a checkout
//! makes, cards kept on file and charged on schedule, the simulated card
//! acquirer, and the payer's checkout itself.

pub mod acquirer;
pub mod card_mails;
pub mod card_schedules;
pub mod card_updates;
pub mod cards;
pub mod charges;
pub mod checkout;
pub mod orders;
pub mod pages;
pub mod receipt;
