// A folder that LAYERS does not name.
#pragma once
